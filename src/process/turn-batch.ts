/**
 * @fileoverview Gathers the questions asked during one event-loop turn and sends them together: a
 * busy server answers many requests a turn, and one round trip for all of them costs about what one
 * costs alone (the rate limits kept in PostgreSQL are asked this way on every upload).
 */

/** Returns `ask`: each call joins the current turn's batch; `flush` answers a batch in order. */
export function batchPerTurn<Q, A>(
  flush: (questions: readonly Q[]) => Promise<readonly A[]>,
): (question: Q) => Promise<A> {
  let pending: Array<{ question: Q; resolve: (answer: A) => void; reject: (error: unknown) => void }> = [];
  const send = () => {
    const batch = pending;
    pending = [];
    flush(batch.map((p) => p.question)).then(
      (answers) => batch.forEach((p, i) => p.resolve(answers[i] as A)),
      (error: unknown) => batch.forEach((p) => p.reject(error)),
    );
  };
  return (question) =>
    new Promise<A>((resolve, reject) => {
      if (pending.length === 0) setImmediate(send);
      pending.push({ question, resolve, reject });
    });
}
