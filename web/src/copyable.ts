import { LitElement, html, css } from "lit";
import { cardStyles } from "./theme.js";

/**
 * A block of text with its copy button, the same in every card: a caption
 * row above the block, the button at its right end, whatever the caption's
 * length or the screen's width. The block itself is the slotted <pre>, so
 * it keeps its card's styles and attributes.
 */
export class Copyable extends LitElement {
  static override properties = { text: { attribute: false }, caption: { attribute: false }, label: { attribute: false }, copied: { state: true } };
  static override styles = [
    cardStyles,
    css`
      .head { display: flex; align-items: center; gap: 8px; margin-top: 6px; }
      .caption { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
      button { flex: none; margin-left: auto; min-height: 32px; padding: 2px 12px; }
    `,
  ];
  /** What the button copies: the block's text as written. */
  declare text: string;
  declare caption: string;
  /** What is copied, for the button's name: "the Claude Code snippet". */
  declare label: string;
  declare copied: boolean;

  constructor() {
    super();
    this.caption = "";
    this.copied = false;
  }

  async #copy() {
    await navigator.clipboard?.writeText(this.text).catch(() => undefined);
    this.copied = true;
    setTimeout(() => (this.copied = false), 2_000);
  }

  override render() {
    return html`<div class="head"><span class="caption muted">${this.caption}</span><button data-copy aria-label="Copy ${this.label}" @click=${() => this.#copy()}>${this.copied ? "Copied" : "Copy"}</button></div>
      <slot></slot>`;
  }
}
customElements.define("ha-agent-copyable", Copyable);
