// Loads one GraphQL query and reloads it when its variables change. The previous data stays on
// screen while the next answer loads, so pages do not flicker as pickers change.
import { useEffect, useState } from 'preact/hooks';
import { graphql } from './graphql.ts';

export interface QueryState<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useQuery<T>(query: string, variables: Record<string, unknown>): QueryState<T> {
  const [state, setState] = useState<Omit<QueryState<T>, 'reload'>>({ data: null, error: null, loading: true });
  const [version, setVersion] = useState(0);
  // Variables are compared by value: callers build a new object on every render.
  const variablesKey = JSON.stringify(variables);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    graphql<T>(query, variables).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) => current && setState({ data: null, error, loading: false }),
    );
    // An answer to superseded variables must not overwrite the newer one.
    return () => {
      current = false;
    };
  }, [query, variablesKey, version]);
  return { ...state, reload: () => setVersion((v) => v + 1) };
}
