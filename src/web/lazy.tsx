import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { LoadFailed } from './components/Field.js';
import { t } from './i18n/index.js';

/** When the page last reloaded because a chunk could not be loaded: at most once a minute, so it never loops. */
const RELOADED_AT = 'steady-reloaded-for-chunk';
const RELOAD_AGAIN_AFTER_MS = 60_000;

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
 * help, the failure is said, with a button to try again.
 */
export function lazyComponent<Props extends object>(load: () => Promise<ComponentType<Props>>): ComponentType<Props> {
  let loaded: ComponentType<Props> | null = null;
  return function Lazy(props: Props) {
    const [component, setComponent] = useState<ComponentType<Props> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (component) return;
      let live = true;
      load().then(
        (Component) => {
          loaded = Component;
          if (live) setComponent(() => Component);
        },
        () => live && !reloadForNewBuild() && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [component]);
    if (component) {
      const Component = component;
      return <Component {...props} />;
    }
    return failed ? <LoadFailed error={t('error.network')} onRetry={() => window.location.reload()} /> : null;
  };
}
