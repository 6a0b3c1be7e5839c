/**
 * The homes of the recall corpus. Held-out homes and their requests were
 * written before the index was tuned and are never tuned to: the benchmark
 * reports them apart as "not tuned to", and prints no misses for them.
 */
import { demoHouse } from "@ha-agent/ha-simulator";
import type { Request } from "../corpus.js";
import { demoHand } from "../hand/demo.js";
import { deHausHand } from "../hand/de-haus.js";
import { enFlatHand } from "../hand/en-flat.js";
import { enHouseHand } from "../hand/en-house.js";
import { jaHeyaHand } from "../hand/ja-heya.js";
import { plDomHand } from "../hand/pl-dom.js";
import { ruKvartiraHand } from "../hand/ru-kvartira.js";
import { zhJiaHand } from "../hand/zh-jia.js";
import { viewOfHouse, viewOfSpec, type HomeView } from "../home-view.js";
import { deHaus } from "./de-haus.js";
import { enFlat } from "./en-flat.js";
import { enHouse } from "./en-house.js";
import { jaHeya } from "./ja-heya.js";
import { plDom } from "./pl-dom.js";
import { ruKvartira } from "./ru-kvartira.js";
import { zhJia } from "./zh-jia.js";

export interface CorpusHome {
  view: HomeView;
  hand: Request[];
  heldOut: boolean;
}

export const HOMES: CorpusHome[] = [
  { view: viewOfSpec(enFlat), hand: enFlatHand, heldOut: false },
  { view: viewOfSpec(enHouse), hand: enHouseHand, heldOut: false },
  { view: viewOfSpec(plDom), hand: plDomHand, heldOut: false },
  { view: viewOfSpec(ruKvartira), hand: ruKvartiraHand, heldOut: false },
  { view: viewOfSpec(zhJia), hand: zhJiaHand, heldOut: false },
  { view: viewOfSpec(deHaus), hand: deHausHand, heldOut: true },
  { view: viewOfSpec(jaHeya), hand: jaHeyaHand, heldOut: true },
  {
    view: viewOfHouse({ id: "demo", language: "en", house: demoHouse(), fill: { items: ["coffee", "eggs", "bin bags"], media: ["jazz", "the radio"] } }),
    hand: demoHand,
    heldOut: true,
  },
];
