/**
 * Where the sun is, from NOAA's solar calculator equations (the same model
 * the `astral` package behind HA's `sun` integration uses), to about a
 * minute. Sunrise and sunset are when the sun's centre is 0.833° below the
 * horizon, as astral and HA count them. The simulator uses it for `sun.sun`,
 * the `sun` condition and solar production that stops at night.
 */

const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The sun's elevation above the horizon, in degrees, at an instant and a place. */
export function sunElevation(ms: number, latitude: number, longitude: number): number {
  return sunPosition(ms, latitude, longitude).elevation;
}

/** Elevation and azimuth (degrees from north, clockwise) of the sun. */
export function sunPosition(ms: number, latitude: number, longitude: number): { elevation: number; azimuth: number } {
  const jd = ms / 86_400_000 + 2440587.5;
  const t = (jd - 2451545) / 36525;
  const l0 = (280.46646 + t * (36000.76983 + t * 0.0003032)) % 360;
  const m = 357.52911 + t * (35999.05029 - 0.0001537 * t);
  const e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t);
  const c = Math.sin(rad(m)) * (1.914602 - t * (0.004817 + 0.000014 * t)) + Math.sin(rad(2 * m)) * (0.019993 - 0.000101 * t) + Math.sin(rad(3 * m)) * 0.000289;
  const omega = 125.04 - 1934.136 * t;
  const lambda = l0 + c - 0.00569 - 0.00478 * Math.sin(rad(omega));
  const eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60;
  const eps = eps0 + 0.00256 * Math.cos(rad(omega));
  const decl = Math.asin(Math.sin(rad(eps)) * Math.sin(rad(lambda)));
  const y = Math.tan(rad(eps / 2)) ** 2;
  const eqTime =
    4 * deg(y * Math.sin(2 * rad(l0)) - 2 * e * Math.sin(rad(m)) + 4 * e * y * Math.sin(rad(m)) * Math.cos(2 * rad(l0)) - 0.5 * y * y * Math.sin(4 * rad(l0)) - 1.25 * e * e * Math.sin(2 * rad(m)));
  const minutesUtc = (((ms % 86_400_000) + 86_400_000) % 86_400_000) / 60_000;
  const trueSolar = (((minutesUtc + eqTime + 4 * longitude) % 1440) + 1440) % 1440;
  const hourAngle = trueSolar / 4 - 180;
  const cosZenith = Math.sin(rad(latitude)) * Math.sin(decl) + Math.cos(rad(latitude)) * Math.cos(decl) * Math.cos(rad(hourAngle));
  const zenith = Math.acos(Math.max(-1, Math.min(1, cosZenith)));
  const cosAz = (Math.sin(rad(latitude)) * Math.cos(zenith) - Math.sin(decl)) / (Math.cos(rad(latitude)) * Math.sin(zenith) || 1e-9);
  const az = deg(Math.acos(Math.max(-1, Math.min(1, cosAz))));
  return { elevation: 90 - deg(zenith), azimuth: hourAngle > 0 ? (az + 180) % 360 : (540 - az) % 360 };
}

const HORIZON = -0.833;

/**
 * Every sunrise and sunset between two instants, in order: found by stepping
 * twenty minutes and bisecting each crossing to a second.
 */
export function sunEvents(fromMs: number, toMs: number, latitude: number, longitude: number, stopAfter?: "sunrise" | "sunset"): { at: number; event: "sunrise" | "sunset" }[] {
  const step = 1_200_000;
  const out: { at: number; event: "sunrise" | "sunset" }[] = [];
  let prev = sunElevation(fromMs, latitude, longitude) - HORIZON;
  for (let t = fromMs + step; t - step < toMs; t += step) {
    const cur = sunElevation(t, latitude, longitude) - HORIZON;
    if ((prev < 0) !== (cur < 0)) {
      const rising = prev < 0;
      let lo = t - step;
      let hi = t;
      while (hi - lo > 1000) {
        const mid = (lo + hi) / 2;
        if (rising === sunElevation(mid, latitude, longitude) - HORIZON < 0) lo = mid;
        else hi = mid;
      }
      const at = Math.round(hi);
      if (at > fromMs && at <= toMs) {
        const event = rising ? "sunrise" : "sunset";
        out.push({ at, event });
        if (event === stopAfter) return out;
      }
    }
    prev = cur;
  }
  return out;
}

/** The next sunrise or sunset after `fromMs` (within two days), or undefined in polar day or night. */
export function nextSunEvent(fromMs: number, event: "sunrise" | "sunset", latitude: number, longitude: number): number | undefined {
  return sunEvents(fromMs, fromMs + 2 * 86_400_000, latitude, longitude, event).find((e) => e.event === event)?.at;
}

/** Whether the sun is above the horizon (HA's `sun.sun` state `above_horizon`). */
export function sunIsUp(ms: number, latitude: number, longitude: number): boolean {
  return sunElevation(ms, latitude, longitude) > HORIZON;
}
