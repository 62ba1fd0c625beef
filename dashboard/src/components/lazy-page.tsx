// A page whose code is a chunk of its own, loaded when the page is first shown: the bundle a
// signed-out visitor loads carries only the sign-in page, and Chart.js and the map come with the
// analytics pages. Once loaded, a page renders at once on every later visit.
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useT, type Messages } from '../i18n/index.ts';
import { ErrorBox, Loading } from './messages.tsx';

type Page<P> = (props: P) => JSX.Element;

/** `name` is the page's name in the catalogue, said while it loads or when it failed to. */
export function lazyPage<P extends object>(
  name: keyof Messages['shell']['pageNames'],
  load: () => Promise<Page<P>>,
): Page<P> {
  let loaded: Page<P> | null = null;
  let loading: Promise<Page<P>> | null = null;
  return function LazyPage(props: P) {
    // A function given to useState is its initialiser: the component is wrapped to be kept as a value.
    const t = useT();
    const [page, setPage] = useState<Page<P> | null>(() => loaded);
    const [failure, setFailure] = useState<unknown>(null);
    useEffect(() => {
      if (page) return;
      let current = true;
      loading ??= load().then((component) => (loaded = component));
      loading.then(
        (component) => current && setPage(() => component),
        (error: unknown) => {
          // A failed chunk (a deploy replaced it, the network dropped) is tried again next time.
          loading = null;
          if (current) setFailure(error);
        },
      );
      return () => {
        current = false;
      };
    }, [page]);
    if (page) {
      const Loaded = page;
      return <Loaded {...props} />;
    }
    const what = t.shell.pageNames[name];
    if (failure) return <ErrorBox title={t.shell.pageNotLoaded(what)} error={failure} />;
    return <Loading what={t.shell.loadingPage(what)} />;
  };
}
