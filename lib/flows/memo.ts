import type { FlowContext } from "./definition";

/**
 * A new memo for one step context (`FlowContext.memo`). It keeps the promise, so callers that ask at
 * the same time share one load; a failed load is forgotten, and the next call tries again.
 */
export function stepMemo(): FlowContext["memo"] {
  const values = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const known = values.get(key);
    if (known) return known as Promise<T>;
    const loading = load();
    values.set(key, loading);
    loading.catch(() => {
      if (values.get(key) === loading) values.delete(key);
    });
    return loading;
  };
}
