/**
 * The data commands' Ctrl-C: the first SIGINT or SIGTERM aborts the command's signal, so it can stop
 * between batches and say what was kept; the handlers are then removed, so a second signal takes
 * the default action (exit).
 */

/** What `interruptOnSignals` returns: the signal to pass down, and `dispose` to remove the handlers. */
export interface InterruptSignal {
  signal: AbortSignal;
  dispose: () => void;
}

/**
 * Given whether to listen (tests and embedders pass false), returns an AbortSignal aborted with
 * "interrupted" on the first SIGINT or SIGTERM, and a `dispose` that removes the handlers (call it in
 * `finally`). Not pure: listens on the process.
 *
 * @example
 * const interrupt = interruptOnSignals(io.handleSignals !== false);
 * try { await run(interrupt.signal); } finally { interrupt.dispose(); }
 */
export function interruptOnSignals(listen: boolean): InterruptSignal {
  const controller = new AbortController();
  const onSignal = () => {
    dispose();
    controller.abort(new Error('interrupted'));
  };
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  if (listen) process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return { signal: controller.signal, dispose };
}
