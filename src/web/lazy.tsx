import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { FormMessage } from './components/Field.js';
import { t } from './i18n/index.js';

/**
 * A component that is its own chunk, loaded the first time it is shown, so the JavaScript every start loads stays
 * small (test/web/bundle-size.test.ts, decision 0144). Nothing shows while it loads (a moment; the service worker
 * keeps the chunk once fetched); if it cannot be loaded (offline before its first visit) the failure is said.
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
        // A chunk that cannot be fetched means no network, or no server, to fetch it from.
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, [component]);
    if (component) {
      const Component = component;
      return <Component {...props} />;
    }
    return failed ? <FormMessage error={t('error.network')} /> : null;
  };
}
