import { HaAgentError } from "../shared/index.js";
import { FORMAT_VERSION } from "./session-schema.js";

/** The exit code of a start (and of fsck) refused because a newer HA Agent wrote the data; docs/storage.md and DOCS.md name it. */
export const FORMAT_TOO_NEW_EXIT_CODE = 4;

/**
 * Data written in a newer format, usually after the add-on was rolled back.
 * Refusing to start, with nothing changed on disk, beats quarantining good
 * data or rewriting it without the fields this version does not know.
 */
export class FormatTooNewError extends HaAgentError {
  constructor(
    readonly where: string,
    readonly found: number,
    writtenBy?: string,
  ) {
    const by = writtenBy ? `HA Agent ${writtenBy}` : "a newer HA Agent";
    super(
      "format_too_new",
      `${where} was written by ${by} in data format ${found}, but this HA Agent reads data format ${FORMAT_VERSION} at most, so it changed nothing and stops: update HA Agent again, or restore the backup made before the update.`,
    );
  }
}
