/**
 * Phrases by which people say where they are, in the languages the
 * vocabulary covers: what follows them names the place.
 */
const I_AM_IN = [
  /\b(?:i am|i'm|im|we are|we're)\s+(?:now\s+)?(?:in|at|on)\s+(?:the\s+|my\s+|our\s+)?(.+)$/i,
  /\b(?:ich bin|wir sind)\s+(?:jetzt\s+)?(?:im|in der|in|am|auf der)\s+(.+)$/i,
  /\b(?:je suis|nous sommes)\s+(?:dans|au|à la|à l')\s*(?:la\s+|le\s+|l')?(.+)$/i,
  /\b(?:estoy|estamos)\s+en\s+(?:el\s+|la\s+)?(.+)$/i,
  /\b(?:sono|siamo)\s+(?:in|nel|nella)\s+(.+)$/i,
  /\b(?:ik ben|we zijn)\s+in\s+(?:de\s+|het\s+)?(.+)$/i,
  /\b(?:jestem|jesteśmy)\s+(?:teraz\s+)?(?:w|we|na)\s+(.+)$/i,
  /(?:^|\s)(?:я|мы)\s+(?:сейчас\s+)?(?:в|во|на)\s+(.+)$/i,
  /(?:我在|我现在在)(.+)$/,
];

/**
 * Where the person speaking is, as a phrase to give search as `nearArea`:
 * a persona's `area` argument, or a pin such as "I am in the kitchen" (the
 * last such pin wins; a pin may say it in several languages). Undefined when
 * nothing says where.
 */
export function whereSpoken(args: { pins: string[]; personaArea?: string | undefined }): string | undefined {
  if (args.personaArea?.trim()) return args.personaArea.trim();
  for (const pin of [...args.pins].reverse()) {
    for (const pattern of I_AM_IN) {
      const m = pattern.exec(pin.trim().replace(/[.!。]+$/, ""));
      if (m?.[1]) return m[1].trim();
    }
  }
  return undefined;
}
