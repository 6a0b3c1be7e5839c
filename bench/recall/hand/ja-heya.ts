import { hand, type Request } from "../corpus.js";

/** Requests to the Japanese flat (held out). */
export const jaHeyaHand: Request[] = [
  hand("command", "リビングの照明をつけて", ["light.living_shoumei"]),
  hand("command", "キッチンの電気を消して", ["light.kitchen_shoumei"]),
  hand("command", "テレビを消して", ["media_player.tv"]),
  hand("underspecified", "音楽を一時停止して", ["media_player.tv", "media_player.living_speaker"]),
  hand("underspecified", "次の曲", ["media_player.living_speaker", "media_player.tv"], "living"),
  hand("command", "寝室のエアコンをつけて", ["climate.shinshitsu_aircon"]),
  hand("command", "エアコンを22度に設定して", ["climate.living_aircon", "climate.shinshitsu_aircon"]),
  hand("underspecified", "掃除を始めて", ["vacuum.roomba"]),
  hand("command", "ロボット掃除機を充電に戻して", ["vacuum.roomba"]),
  hand("command", "カーテンを閉めて", ["cover.living_curtain"]),
  hand("command", "玄関の鍵を閉めて", ["lock.genkan_kagi"]),
  hand("command", "換気扇を止めて", ["fan.kankisen"]),
  hand("command", "扇風機をつけて", ["fan.senpuki"]),
  hand("command", "電気ケトルをオンにして", ["switch.kettle"]),
  hand("command", "買い物リストに牛乳を追加して", ["todo.kaimono"]),
  hand("question", "リビングの温度は", ["sensor.living_ondo", "climate.living_aircon"]),
  hand("question", "リビングの湿度は何パーセント", ["sensor.living_shitsudo"]),
  hand("question", "人感センサーの電池残量は", ["sensor.living_jinkan_denchi"]),
  hand("question", "玄関の鍵はかかってる", ["lock.genkan_kagi"]),
  hand("underspecified", "今日の天気は", ["weather.jitaku"]),
  hand("underspecified", "外は何度", ["sensor.gaiki", "weather.jitaku"]),
  hand("question", "食洗機は終わった", ["binary_sensor.shokusenki"]),
  hand("command", "子供部屋の照明を消して", ["light.kodomobeya_shoumei"]),
  hand("command", "加湿器をつけて", ["humidifier.kashitsuki"]),
];
