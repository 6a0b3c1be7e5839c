import { html } from "lit";
import type { HomeFormat } from "./format.js";

/** A moment on the page: the home's date and time as text, the exact instant in datetime. */
export const momentTag = (f: HomeFormat, ms: number) => html`<time datetime=${new Date(ms).toISOString()}>${f.moment(ms)}</time>`;

/** One of Home Assistant's calendar days ("2026-12-07"), written as the page writes days. */
export const dayTag = (f: HomeFormat, day: string) => html`<time datetime=${day}>${f.day(day)}</time>`;
