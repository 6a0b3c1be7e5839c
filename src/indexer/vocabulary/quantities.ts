import type { Quantity } from "./concept.js";

/**
 * What questions ask for, as the device classes of the sensors that measure
 * it. A question about a quantity prefers numeric sensors of that class (or
 * with its unit) over binary ones ("battery level" over "battery low").
 */
export const QUANTITIES: Quantity[] = [
  {
    kinds: "c:temperature climate@0.85 weather@0.5 water_heater@0.5",
    words: {
      en: "temperature temp degrees degree hot cold warm cool chilly thermometer",
      de: "temperatur grad warm kalt heiß kühl thermometer",
      fr: "température degrés degré chaud froid",
      es: "temperatura grados grado calor frío caliente",
      it: "temperatura gradi grado caldo freddo",
      nl: "temperatuur graden graad warm koud",
      pt: "temperatura graus grau quente frio",
      pl: "temperatura temperaturę temperatury stopni stopnie stopień ciepło zimno gorąco",
      cs: "teplota teplotu stupňů stupně teplo zima",
      ru: "температура температуру температуры градусов градуса градус тепло холодно жарко",
      uk: "температура температуру градусів",
      sv: "temperatur grader varmt kallt",
      da: "temperatur grader varmt koldt",
      nb: "temperatur grader varmt kaldt",
      fi: "lämpötila astetta lämmin kylmä",
      hu: "hőmérséklet fok",
      zh: "温度 几度 多少度 度 冷 热",
      ja: "温度 気温 室温 何度 寒い 暑い",
      ko: "온도 기온",
    },
  },
  { kinds: "c:humidity", words: { en: "humidity humid damp", de: "luftfeuchtigkeit feuchtigkeit luftfeuchte feucht", fr: "humidité", es: "humedad", it: "umidità", nl: "luchtvochtigheid vochtigheid", pt: "humidade umidade", pl: "wilgotność wilgotności wilgoć", cs: "vlhkost", ru: "влажность влажности", uk: "вологість", sv: "luftfuktighet fuktighet", da: "luftfugtighed fugtighed", nb: "luftfuktighet fuktighet", fi: "kosteus ilmankosteus", zh: "湿度", ja: "湿度", ko: "습도" } },
  { kinds: "c:battery", words: { en: "battery batteries charge", de: "batterie akku ladestand ladung", fr: "batterie pile charge", es: "batería pila carga", it: "batteria pila carica", nl: "batterij accu", pt: "bateria carga", pl: "bateria baterii baterie baterię naładowanie akumulator", cs: "baterie baterka", ru: "батарея батареи батарейка батарейки заряд заряда аккумулятор", uk: "батарея заряд", sv: "batteri", da: "batteri", nb: "batteri", fi: "akku paristo", zh: "电量 电池 多少电 剩余电量", ja: "電池 バッテリー 電池残量", ko: "배터리" } },
  { kinds: "c:power c:energy@0.6", words: { en: "power watts wattage drawing consuming consumption usage using load", de: "leistung verbrauch watt strom", fr: "puissance consommation watts", es: "potencia consumo vatios", it: "potenza consumo watt", nl: "vermogen verbruik", pt: "potência consumo", pl: "moc mocy pobór pobiera zużycie prąd prądu", cs: "příkon spotřeba", ru: "мощность потребление потребляет ватт", uk: "потужність споживання", sv: "effekt förbrukning", da: "effekt forbrug", nb: "effekt forbruk", fi: "teho kulutus", zh: "功率 耗电", ja: "消費電力 電力", ko: "전력 소비" } },
  { kinds: "c:energy c:power@0.6", words: { en: "energy electricity kwh", de: "energie stromverbrauch", fr: "énergie électricité", es: "energía electricidad", it: "energia elettricità", nl: "energie stroom elektriciteit", pt: "energia eletricidade", pl: "energia energii energię", cs: "energie elektřina", ru: "энергия электричество электроэнергия", sv: "energi el", da: "energi strøm", nb: "energi strøm", fi: "energia sähkö", zh: "电量 用电 能耗", ja: "電力量 電気代", ko: "에너지" } },
  { kinds: "c:illuminance", words: { en: "illuminance lux light_level brightness_level bright dark", de: "helligkeit beleuchtungsstärke lux", fr: "luminosité éclairement", es: "iluminancia luminosidad", it: "luminosità illuminamento", nl: "lichtsterkte", pl: "natężenie_światła jasność", ru: "освещенность освещённость", zh: "照度 光照", ja: "照度 明るさ", ko: "조도" } },
  { kinds: "c:atmospheric_pressure c:pressure", words: { en: "pressure air_pressure barometer", de: "luftdruck druck", fr: "pression", es: "presión", it: "pressione", nl: "luchtdruk druk", pl: "ciśnienie ciśnienia", ru: "давление давления", zh: "气压 压力", ja: "気圧 圧力", ko: "기압" } },
  { kinds: "c:carbon_dioxide", words: { en: "co2 carbon_dioxide", de: "kohlendioxid", fr: "dioxyde", es: "dióxido", pl: "dwutlenek", ru: "углекислый", zh: "二氧化碳", ja: "二酸化炭素" } },
  { kinds: "c:pm25 c:pm10@0.8 c:pm1@0.7 c:aqi@0.7", words: { en: "pm25 pm2 pm10 pm1 particulate particulates dust", de: "feinstaub", fr: "particules", es: "partículas", pl: "pył pyłu smog", ru: "пыль", zh: "颗粒物", ja: "微粒子" } },
  { kinds: "c:aqi c:pm25@0.7 c:volatile_organic_compounds@0.6", words: { en: "aqi air_quality voc", de: "luftqualität", fr: "qualité_de_l'air", es: "calidad_del_aire", it: "qualità_dell'aria", nl: "luchtkwaliteit", pl: "jakość_powietrza", ru: "качество_воздуха", zh: "空气质量", ja: "空気質" } },
  { kinds: "c:voltage", words: { en: "voltage volts", de: "spannung", fr: "tension", es: "voltaje", it: "tensione", nl: "spanning", pl: "napięcie", ru: "напряжение", zh: "电压", ja: "電圧" } },
  { kinds: "c:current", words: { en: "amps amperage electric_current", de: "stromstärke", fr: "courant intensité", es: "corriente", it: "corrente", nl: "stroomsterkte", pl: "natężenie", ru: "ток", zh: "电流", ja: "電流" } },
  { kinds: "c:wind_speed c:speed@0.6 weather@0.5", words: { en: "wind windy", de: "wind windig", fr: "vent", es: "viento", it: "vento", nl: "wind", pl: "wiatr wiatru", ru: "ветер ветра", zh: "风速 风", ja: "風", ko: "바람" } },
  { kinds: "c:precipitation c:precipitation_intensity@0.8 weather@0.6", words: { en: "rain rainfall precipitation rained snow", de: "regen niederschlag", fr: "pluie précipitations", es: "lluvia precipitación", it: "pioggia precipitazioni", nl: "regen neerslag", pl: "deszcz deszczu opady", ru: "дождь осадки", zh: "降雨 雨量 下雨", ja: "雨 降水量", ko: "비" } },
  { kinds: "c:water c:volume@0.6 c:moisture@0.3", words: { en: "water water_usage water_consumption", de: "wasser wasserverbrauch", fr: "eau", es: "agua", it: "acqua", nl: "water", pt: "água", pl: "woda wody wodę", ru: "вода воды", zh: "用水 水量", ja: "水道 水量", ko: "물" } },
  { kinds: "c:moisture", words: { en: "moisture soil", de: "bodenfeuchte", fr: "humidité_du_sol", es: "humedad_del_suelo", pl: "wilgotność_gleby", ru: "влажность_почвы", zh: "土壤湿度", ja: "土壌水分" } },
  { kinds: "c:distance", words: { en: "distance range mileage", de: "entfernung reichweite", fr: "distance autonomie", es: "distancia autonomía", it: "distanza autonomia", nl: "afstand bereik", pl: "odległość zasięg", ru: "расстояние запас_хода", zh: "距离 续航", ja: "距離" } },
  { kinds: "c:speed", words: { en: "speed velocity", de: "geschwindigkeit", fr: "vitesse", es: "velocidad", it: "velocità", nl: "snelheid", pl: "prędkość", ru: "скорость", zh: "速度", ja: "速度" } },
  { kinds: "c:weight", words: { en: "weight mass", de: "gewicht", fr: "poids", es: "peso", it: "peso", nl: "gewicht", pl: "waga wagę", ru: "вес", zh: "重量 体重", ja: "体重 重さ" } },
  { kinds: "c:monetary", words: { en: "price cost tariff money", de: "preis kosten", fr: "prix coût", es: "precio coste", it: "prezzo costo", nl: "prijs kosten", pl: "cena cenę koszt", ru: "цена стоимость", zh: "电价 价格", ja: "価格 料金" } },
  { kinds: "c:signal_strength", words: { en: "signal wifi rssi", de: "signal signalstärke", fr: "signal", es: "señal", it: "segnale", nl: "signaal", pl: "sygnał", ru: "сигнал", zh: "信号", ja: "電波" } },
  { kinds: "c:duration c:timestamp@0.6 c:enum@0.5 c:running@0.6", words: { en: "remaining left done finished progress", de: "fertig restzeit", fr: "fini terminé restant", es: "terminado restante", it: "finito rimanente", nl: "klaar", pl: "skończyła skończył skończone gotowe pozostało", ru: "закончила закончил осталось", zh: "剩余 完成", ja: "終わった 残り" } },
  { kinds: "weather c:ozone@0.6 c:aqi@0.4", words: { en: "dew_point dewpoint uv uv_index cloud clouds cloudy cloud_cover cloudiness visibility ozone sunny", de: "taupunkt bewölkung wolken sichtweite ozon uv-index", fr: "point_de_rosée nuages nuageux visibilité ozone", es: "punto_de_rocío nubes nublado visibilidad ozono", it: "punto_di_rugiada nuvole nuvoloso visibilità ozono", nl: "dauwpunt bewolking zicht", pl: "punkt_rosy rosy zachmurzenie zachmurzenia widoczność ozon ozonu uv", ru: "точка_росы облачность видимость озон", zh: "露点 云量 能见度 紫外线 臭氧", ja: "露点 雲 視程 紫外線" } },
  { kinds: "c:sound_pressure", words: { en: "noise noisy decibels", de: "lärm lautstärkepegel", fr: "bruit", es: "ruido", it: "rumore", nl: "geluid lawaai", pl: "hałas", ru: "шум", zh: "噪音", ja: "騒音" } },
];
