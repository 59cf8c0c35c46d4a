/**
 * A button that acts only after an in-page confirmation (the offers' Grant and Revoke): a click shows
 * the question with a confirm and a cancel button; confirming runs the request, then either hands
 * the success message on or writes the failure in the answer line. No `window.confirm`: the page's
 * tests drive it, and a modal would block the live feed.
 */
import { h } from './dom.js';

/** What a confirmed request came to: a message for the caller, or the line to show beside the button. */
export type ActionResult = { ok: true; message: string } | { ok: false; line: string };

/** One confirmed action. `name` prefixes its classes (`name`, `name-confirm`, `name-cancel`, `name-answer`). */
export interface ConfirmedAction {
  name: string;
  label: string;
  /** Extra attributes of the button (data attributes the page's tests find it by). */
  attributes: Record<string, string | number>;
  question: string;
  confirmLabel: string;
  /** The answer line while the request runs. */
  pending: string;
  run(): Promise<ActionResult>;
  /** Told the success message (reloads the view); the answer line keeps nothing. */
  done(message: string): void | Promise<void>;
  /** The answer line when the request threw (no answer at all). */
  thrown(message: string): string;
  /** The answer line's element (`p` under a block, `span` inside a table cell). */
  answerTag: 'p' | 'span';
}

/**
 * Given a confirmed action, returns its button, its (hidden) confirmation and its answer line, in
 * that order, for the caller to place.
 *
 * @example
 * const [button, dialog, answer] = confirmedAction({ name: 'revoke', label: 'Revoke', … });
 */
export function confirmedAction(action: ConfirmedAction): [HTMLButtonElement, HTMLElement, HTMLElement] {
  const button = h('button', { type: 'button', class: action.name, ...action.attributes }, action.label) as HTMLButtonElement;
  const answer = h(action.answerTag, { role: 'status', class: `muted small ${action.name}-answer` });
  const confirm = h('button', { type: 'button', class: `${action.name}-confirm` }, action.confirmLabel) as HTMLButtonElement;
  const cancel = h('button', { type: 'button', class: `${action.name}-cancel` }, 'Cancel') as HTMLButtonElement;
  const dialog = h('div', { class: 'offer-confirmation', role: 'alertdialog', 'aria-label': action.question, hidden: true }, h('p', {}, action.question), confirm, ' ', cancel);
  const close = () => {
    dialog.hidden = true;
    confirm.disabled = false;
    button.disabled = false;
  };
  button.addEventListener('click', () => {
    dialog.hidden = false;
    button.disabled = true;
    confirm.focus();
  });
  cancel.addEventListener('click', close);
  confirm.addEventListener('click', async () => {
    confirm.disabled = true;
    answer.textContent = action.pending;
    try {
      const result = await action.run();
      if (result.ok) return void (await action.done(result.message));
      answer.textContent = result.line;
    } catch (error) {
      answer.textContent = action.thrown(error instanceof Error ? error.message : String(error));
    } finally {
      close();
    }
  });
  return [button, dialog, answer];
}
