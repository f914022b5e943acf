import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LoadFailed } from './components/Field.js';
import { t } from './i18n/index.js';

/** When the page last reloaded because a chunk could not be loaded: at most once a minute, so it never loops. */
const RELOADED_AT = 'steady-reloaded-for-chunk';
const RELOAD_AGAIN_AFTER_MS = 60_000;
/**
 * How long a chunk may take before the failure is said: as long as an API call (api.ts). Only a first visit, before
 * the service worker has kept the chunks, can wait this long, on a network that answers nothing (decision 0149).
 */
const CHUNK_WAIT_MS = 10_000;

/**
 * A page left open across a deployment asks for a chunk of the build it started with, which the server no longer
 * has (and the service worker dropped with the old build): loading the page again brings the new build and its
 * chunks. Answers false, without reloading, when it reloaded for this a moment ago: then the chunk is missing for
 * another reason (no network, no server), which a reload does not mend.
 */
function reloadForNewBuild(): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT));
    if (Date.now() - last < RELOAD_AGAIN_AFTER_MS) return false;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    // No sessionStorage (some private modes): a reload could not be told from a loop.
    return false;
  }
  window.location.reload();
  return true;
}

/**
 * A component that is its own chunk, loaded the first time it is shown, so the JavaScript every start loads stays
 * small (test/web/bundle-size.test.ts, decision 0144); the service worker keeps the chunk for a start without
 * network (decision 0145). If it cannot be loaded, the page loads again once (a new deployment); if that does not
 * help, or the chunk has not come after CHUNK_WAIT_MS, the failure is said, with a button to try again (a reload for
 * a failed chunk, another wait for a slow one). A chunk that comes after all is still shown.
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  let loaded: ComponentType<Props> | null = null;
  return function Lazy(props: Props) {
    const [component, setComponent] = useState<ComponentType<Props> | null>(() => loaded);
    /** `slow`: the chunk is still on its way after CHUNK_WAIT_MS; `failed`: the browser gave up on it. */
    const [trouble, setTrouble] = useState<'slow' | 'failed' | null>(null);
    useEffect(() => {
      if (component) return;
      let live = true;
      const giveUp = setTimeout(() => setTrouble('slow'), CHUNK_WAIT_MS);
      load().then(
        (Component) => {
          clearTimeout(giveUp);
          loaded = Component;
          if (live) setComponent(() => Component);
        },
        () => {
          clearTimeout(giveUp);
          if (live && !reloadForNewBuild()) setTrouble('failed');
        },
      );
      return () => {
        live = false;
        clearTimeout(giveUp);
      };
    }, [component]);
    if (component) {
      const Component = component;
      return <Component {...props} />;
    }
    if (trouble === null) return null;
    // A slow chunk is waited for again (its request goes on): a reload would start it over, so on a network where it
    // takes longer than CHUNK_WAIT_MS it would never arrive. A failed one only a new page asks for anew.
    const retry =
      trouble === 'slow'
        ? () => {
            setTrouble(null);
            setTimeout(() => setTrouble((now) => now ?? 'slow'), CHUNK_WAIT_MS);
          }
        : () => window.location.reload();
    return <LoadFailed error={t('error.network')} onRetry={retry} />;
  };
}
