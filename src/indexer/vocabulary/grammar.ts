import type { Words } from "./concept.js";

/**
 * Words that shape a request without naming anything: state words, question
 * words, the small words of each language, and units of the values a
 * command sets. They are known words, so they are never read as typos of a
 * name.
 */

/**
 * State words and the states Home Assistant reports for them. In a question
 * ("which lights are on") they select entities in that state; in a command
 * ("turn off the lamp") they say what is wanted, not which entity is meant.
 */
export const STATES = new Map<string, string[]>([
  ["on", ["on"]],
  ["off", ["off"]],
  ["out", ["off"]],
  ["open", ["open", "opening"]],
  ["opened", ["open"]],
  ["closed", ["closed", "closing"]],
  ["shut", ["closed"]],
  ["locked", ["locked"]],
  ["unlocked", ["unlocked"]],
  ["playing", ["playing"]],
  ["paused", ["paused"]],
  ["idle", ["idle"]],
  ["home", ["home"]],
  ["away", ["not_home"]],
  ["docked", ["docked"]],
  ["cleaning", ["cleaning"]],
  ["charging", ["on"]],
  ["running", ["on"]],
  ["unavailable", ["unavailable"]],
  ["unknown", ["unknown"]],
  ["heating", ["heat"]],
  ["cooling", ["cool"]],
  ["armed", ["armed_away", "armed_home", "armed_night"]],
  ["disarmed", ["disarmed"]],
  ["triggered", ["triggered", "on"]],
  ["detected", ["on"]],
  ["wet", ["on"]],
  ["dry", ["off"]],
  ["low", ["on"]],
  ["charged", ["off"]],
  ["normal", ["off"]],
  ["full", ["off"]],
  ["empty", ["on"]],
  ["clear", ["off"]],
  ["occupied", ["on"]],
  // The same states in other languages, as questions ask them ("czy światło jest włączone").
  ["an", ["on"]], ["aus", ["off"]], ["ein", ["on"]], ["eingeschaltet", ["on"]], ["ausgeschaltet", ["off"]], ["offen", ["open", "opening"]], ["geschlossen", ["closed", "closing"]], ["abgeschlossen", ["locked"]],
  ["allumé", ["on"]], ["allumée", ["on"]], ["allumés", ["on"]], ["allumées", ["on"]], ["éteint", ["off"]], ["éteinte", ["off"]], ["éteints", ["off"]], ["ouvert", ["open"]], ["ouverte", ["open"]], ["ouverts", ["open"]], ["fermé", ["closed"]], ["fermée", ["closed"]], ["fermés", ["closed"]], ["verrouillé", ["locked"]], ["verrouillée", ["locked"]],
  ["encendido", ["on"]], ["encendida", ["on"]], ["encendidos", ["on"]], ["encendidas", ["on"]], ["apagado", ["off"]], ["apagada", ["off"]], ["apagados", ["off"]], ["abierto", ["open"]], ["abierta", ["open"]], ["cerrado", ["closed"]], ["cerrada", ["closed"]],
  ["acceso", ["on"]], ["accesa", ["on"]], ["accesi", ["on"]], ["spento", ["off"]], ["spenta", ["off"]], ["spenti", ["off"]], ["aperto", ["open"]], ["aperta", ["open"]], ["chiuso", ["closed"]], ["chiusa", ["closed"]],
  ["aan", ["on"]], ["uit", ["off"]], ["dicht", ["closed"]],
  ["włączone", ["on"]], ["włączony", ["on"]], ["włączona", ["on"]], ["włączonych", ["on"]], ["wyłączone", ["off"]], ["wyłączony", ["off"]], ["wyłączona", ["off"]], ["otwarte", ["open"]], ["otwarty", ["open"]], ["otwarta", ["open"]], ["zamknięte", ["closed", "locked"]], ["zamknięty", ["closed", "locked"]], ["zamknięta", ["closed", "locked"]],
  ["включен", ["on"]], ["включена", ["on"]], ["включено", ["on"]], ["включены", ["on"]], ["выключен", ["off"]], ["выключена", ["off"]], ["выключено", ["off"]], ["выключены", ["off"]],
  ["открыт", ["open"]], ["открыта", ["open"]], ["открыто", ["open"]], ["открыты", ["open"]], ["закрыт", ["closed"]], ["закрыта", ["closed"]], ["закрыто", ["closed"]], ["закрыты", ["closed"]], ["заперт", ["locked"]], ["заперта", ["locked"]],
  ["работает", ["on"]], ["работают", ["on"]], ["работающие", ["on"]], ["сработал", ["on"]], ["сработала", ["on"]], ["сработавший", ["on"]], ["сработавших", ["on"]], ["разряжен", ["on"]], ["разряжена", ["on"]], ["разряжены", ["on"]], ["заряжен", ["off"]], ["заряжена", ["off"]], ["полные", ["off"]],
  ["打开的", ["on", "open"]], ["开着", ["on", "open"]], ["关着", ["off", "closed"]],
]);

/** What kind of device a state word speaks of, when it is plain: "running" machines, "wet" leak sensors. */
export const STATE_KINDS = new Map<string, string>([
  ["locked", "lock c:lock@0.6"],
  ["unlocked", "lock c:lock@0.6"],
  ["playing", "media_player"],
  ["paused", "media_player"],
  ["docked", "vacuum lawn_mower@0.8"],
  ["cleaning", "vacuum"],
  ["charging", "c:battery_charging c:plug@0.5"],
  ["running", "c:running c:power@0.5"],
  ["wet", "c:moisture"],
  ["dry", "c:moisture"],
  ["low", "c:battery@0.8"],
  ["charged", "c:battery@0.8"],
  ["detected", "c:motion@0.6 c:occupancy@0.6 c:smoke@0.4 c:gas@0.4"],
  ["occupied", "c:occupancy c:presence@0.8 c:motion@0.8"],
  ["home", "person@0.8 device_tracker@0.6"],
  ["away", "person@0.8 device_tracker@0.6"],
  ["armed", "alarm_control_panel"],
  ["disarmed", "alarm_control_panel"],
  ["heating", "climate@0.8"],
  ["cooling", "climate@0.8"],
  ["abgeschlossen", "lock"],
  ["verrouillé", "lock"],
  ["заперт", "lock"],
  ["заперта", "lock"],
  ["работает", "c:running c:power@0.5"],
  ["работают", "c:running c:power@0.5"],
  ["работающие", "c:running c:power@0.5"],
  ["разряжен", "c:battery@0.8"],
  ["разряжена", "c:battery@0.8"],
  ["разряжены", "c:battery@0.8"],
  ["заряжен", "c:battery@0.8"],
  ["заряжена", "c:battery@0.8"],
]);

/** Words that open a question. */
export const QUESTION_WORDS: Words = {
  en: "what what's whats which is are was were does do did how where who when has have any tell",
  de: "was wie welche welcher welches ist sind gibt wo wann wer hat haben",
  fr: "quel quelle quels quelles est combien où qui quand y_a-t-il",
  es: "qué que cuál cuáles cuánto cuánta cuántos está están hay dónde quién cuándo",
  it: "quale quali quanto quanta quanti è sono c'è dove chi quando com'è",
  nl: "wat welke hoe is zijn waar wie wanneer hoeveel",
  pt: "qual quais quanto está estão há onde quem quando",
  pl: "jaki jaka jakie jaką czy ile gdzie kto który która które kiedy",
  cs: "jaký jaká jaké je jsou kolik kde kdo kdy",
  ru: "какой какая какое какие какую ли сколько где кто когда есть",
  uk: "який яка яке скільки де хто коли чи",
  sv: "vad vilken vilka hur är finns var vem när",
  da: "hvad hvilken hvilke hvordan er hvor hvem hvornår",
  nb: "hva hvilken hvilke hvordan er hvor hvem når",
  fi: "mikä mitkä kuinka onko missä kuka milloin",
  zh: "吗 什么 多少 几 哪 是否 怎么样 怎样 如何 有没有",
  ja: "何 どう いくつ どこ 誰 ですか",
  ko: "뭐 몇 어디 누구 어때",
};

/** Small words that name nothing (articles, prepositions, pronouns, politeness) in the languages the tables cover. */
export const FUNCTION_WORDS: Words = {
  en: "a an the of in at to for and or my our me all any every each there with from by that this these those it its them here into onto please can could would you i we us do does now currently right_now tell about be been being some up down just again also too bit little much many lot everywhere whole entire s t ll re ve m d",
  de: "der die das den dem des ein eine einen einem einer im in am an auf aus bei mit von vom zu zum zur und oder bitte mein meine meinen unser unsere alle alles hier jetzt mal es ist kannst du",
  fr: "le la les l' un une des du de d' au aux à dans sur et ou mon ma mes notre nos tout tous toutes ici maintenant s'il_te_plaît stp peux tu",
  es: "el la los las un una unos unas del de al a en con y o mi mis nuestro nuestra todo todos todas aquí ahora por_favor puedes",
  it: "il lo la i gli le un una uno del della dei delle di a al alla in nel nella nei nelle su sul sulla e o mio mia miei mie tutto tutti tutte qui adesso ora per_favore puoi",
  nl: "de het een van in op aan bij met en of mijn onze ons alle alles hier nu even graag",
  pt: "o a os as um uma do da dos das de no na nos nas em com e ou meu minha todos todas aqui agora por_favor",
  pl: "w we na do z ze i oraz lub mój moja moje mojej mojego nasz nasza wszystkie wszystko wszystkich tutaj teraz proszę możesz się to ten ta tego tej jest są",
  cs: "v ve na do z ze a nebo můj moje náš všechny všechno tady teď prosím",
  ru: "в во на к с со и или мой моя моё мои наш наша все всё весь тут здесь сейчас пожалуйста можешь это этот эта",
  uk: "в у на до з і або мій моя всі все тут зараз будь_ласка",
  sv: "en ett den det de i på till av med och eller min mitt mina vår alla här nu tack",
  da: "en et den det de i på til af med og eller min mit mine vores alle her nu tak",
  nb: "en et den det de i på til av med og eller min mitt mine vår alle her nå takk",
  fi: "ja tai minun meidän kaikki täällä nyt kiitos",
  zh: "的 了 把 将 给 请 帮 我 吧 呢 一下 在 里 里面 这 那",
  ja: "の を に は が で と て して ください",
  ko: "을 를 이 가 은 는 좀 해줘 주세요",
};

/**
 * Words that say little but may be part of a name ("Printer Status", "Reading Lamp"): they count a little,
 * so a name that has them edges ahead, and a name that lacks them is not pushed down.
 */
export const SOFT_WORDS = new Set(["level", "amount", "value", "reading", "status", "state", "current", "device", "devices", "thing", "things", "appliance", "appliances", "object", "objects", "item", "items", "поле", "устройство", "устройства", "устройств", "объекты", "приборы", "urządzenie", "urządzenia", "gerät", "geräte", "appareil", "appareils", "dispositivo", "dispositivos", "apparaat", "apparaten"]);

/** Words that place the request where it was spoken: "in here", "this room". */
export const HERE_WORDS = new Set(["here", "tutaj", "tu", "здесь", "тут", "hier", "ici", "aquí", "aqui", "qua", "här", "täällä", "这里", "这儿", "这边", "ここ"]);
export const THIS_ROOM = new Set(["this room", "this area", "this space", "my area", "my room", "my space", "tym pokoju", "tym pomieszczeniu", "этой комнате", "diesem raum", "dieser raum", "cette pièce", "esta habitación", "questa stanza", "deze kamer"]);

/** Words that open a request without naming anything, when they come first: "show me…", "list the…". */
export const LEADING_VERBS = new Set(["show", "list", "find", "tell", "give", "get", "search", "look", "check", "zeig", "zeige", "liste", "montre", "muestra", "mostra", "pokaż", "покажи", "покажи-ка"]);

/** Units and words that follow a value a command sets ("21 degrees", "50 %"): the number is a value, not a name. */
export const VALUE_UNITS = new Set([
  "degree", "degre", "degrees", "°", "°c", "°f", "c", "f", "percent", "per_cent", "%", "pct", "grad", "grados", "gradi", "graden", "stopni", "stopnie", "stopień", "градусов", "градуса", "градус", "prozent", "pourcent", "pour_cent", "por_ciento", "per_cento", "procent", "procent", "процентов", "процента", "度", "パーセント", "%",
]);

/** Words before a value: "to 21", "at 50 %". */
export const VALUE_LEADS = new Set(["to", "at", "by", "auf", "à", "a", "al", "op", "naar", "na", "на", "до", "till", "til", "på", "为", "到", "成"]);
