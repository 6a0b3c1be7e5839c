import { css } from "lit";

/** HA's card look, shared by every element: each reads the theme's variables, never a colour of its own. */
export const cardStyles = css`
  :host {
    display: block;
  }
  .card {
    background: var(--card-background-color);
    border: 1px solid var(--divider-color);
    border-radius: var(--ha-card-border-radius, 12px);
    padding: 16px;
    margin: 0 0 16px;
  }
  h2 {
    font-size: 20px;
    font-weight: 400;
    margin: 0 0 12px;
    line-height: 1.3;
  }
  h3 {
    font-size: 15px;
    font-weight: 500;
    margin: 12px 0 6px;
  }
  .muted {
    color: var(--secondary-text-color);
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 4px 16px;
    margin: 0;
  }
  dt {
    color: var(--secondary-text-color);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  code,
  pre {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 12.5px;
    background: var(--code-background-color);
    border-radius: 6px;
  }
  code {
    padding: 1px 4px;
  }
  pre {
    padding: 10px 12px;
    margin: 6px 0;
    overflow-x: auto;
    white-space: pre;
  }
  button {
    font: inherit;
    font-weight: 500;
    color: var(--primary-text-color);
    background: transparent;
    border: 1px solid var(--primary-color);
    border-radius: 18px;
    padding: 6px 16px;
    min-height: 36px;
    cursor: pointer;
  }
  button:hover {
    background: var(--secondary-background-color);
  }
  button:focus-visible {
    outline: 2px solid var(--primary-color);
    outline-offset: 2px;
  }
  button.danger {
    border-color: var(--error-color);
  }
  button.ok {
    border-color: var(--success-color);
  }
  .status {
    display: inline-block;
    padding: 0 8px;
    border-radius: 10px;
    font-size: 12px;
    border: 1px solid var(--divider-color);
    white-space: nowrap;
    /* Its own background: a selected or hovered row behind it must not take its colours below AA contrast. */
    background: var(--card-background-color);
    font-weight: 400;
  }
  .status.ok, .status.completed, .status.connected {
    color: var(--success-color);
    border-color: var(--success-color);
  }
  .status.failed, .status.unavailable, .status.expired, .status.cancelled {
    color: var(--error-color);
    border-color: var(--error-color);
  }
  .status.degraded, .status.input_required, .status.running, .status.streaming, .status.pending {
    color: var(--warning-color);
    border-color: var(--warning-color);
  }
  ul {
    margin: 4px 0;
    padding-left: 20px;
  }
`;
