import { ModelError } from "../errors.js";

/**
 * Refusals that name a flag the server was started without. No retry can
 * fix them, and each status they come with differs (llama-server's is a
 * 500), so they are recognised by their words and become one error that
 * says exactly what to add to the server's command line.
 */
const FLAG_REFUSALS: { test: RegExp; message: (server: string, said: string) => string }[] = [
  {
    // llama.cpp tools/server (oaicompat chat params parsing): tools without --jinja throw, answered as HTTP 500.
    test: /requires --jinja/i,
    message: (server, said) =>
      `The llama-server at ${server} refuses tools because it was started without --jinja ("${said}"). Restart llama-server with --jinja added to its command line; retrying cannot help.`,
  },
  {
    // vLLM (vllm/entrypoints/openai/chat_completion/serving.py): tools with tool_choice "auto" need both flags.
    test: /--enable-auto-tool-choice|--tool-call-parser/i,
    message: (server, said) =>
      `The vLLM server at ${server} refuses tools because it was started without --enable-auto-tool-choice and --tool-call-parser ("${said}"). Restart it with --enable-auto-tool-choice --tool-call-parser PARSER, where PARSER fits the model (hermes for Qwen, llama3_json for Llama 3.1 to 3.3, mistral for Mistral); retrying cannot help.`,
  },
];

/** A `server_setup` error for a refusal that names a missing server flag, or undefined. */
export function refusalNamingFlags(args: { said: string | undefined; server: string; status?: number }): ModelError | undefined {
  const { said } = args;
  if (!said) return undefined;
  const known = FLAG_REFUSALS.find((r) => r.test.test(said));
  return known ? new ModelError("server_setup", known.message(args.server, said), args.status !== undefined ? { status: args.status } : {}) : undefined;
}
