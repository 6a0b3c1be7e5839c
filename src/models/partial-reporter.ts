import { describeError, type Logger } from "../shared/index.js";
import type { GenerateOptions, PartialOutput } from "./types.js";

/**
 * Calls `onPartial` with what is new in a streamed answer. A callback that
 * throws is logged once and then left alone: a broken listener must never
 * fail the model call it listens to.
 */
export function partialReporter(onPartial: GenerateOptions["onPartial"], logger: Logger): (partial: PartialOutput) => void {
  let failed = false;
  return (partial) => {
    if (!onPartial || failed || (!partial.text && !partial.thinking)) return;
    try {
      onPartial(partial);
    } catch (err) {
      failed = true;
      logger.warn(`The onPartial callback failed and gets no more deltas for this call: ${describeError(err)}`);
    }
  };
}
