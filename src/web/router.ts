import { useEffect, useState } from 'preact/hooks';

/** In-app pages live in the URL hash, because the server answers only `/` with the app. */
export type Route =
  | { page: 'goals' }
  | { page: 'new' }
  | { page: 'goal'; id: string }
  | { page: 'edit'; id: string }
  | { page: 'invites' }
  | { page: 'settings' }
  | { page: 'admin' }
  | { page: 'arrange' }
  | { page: 'forgot' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [first, second, third] = parts;
  if (first === 'goal' && second && /^\d+$/.test(second))
    return third === 'edit' ? { page: 'edit', id: second } : { page: 'goal', id: second };
  if (first === 'new') return { page: 'new' };
  if (first === 'invites' || first === 'settings' || first === 'admin' || first === 'forgot' || first === 'arrange')
    return { page: first };
  return { page: 'goals' };
}

export const href = {
  goals: '#/goals',
  newGoal: '#/new',
  goal: (id: string) => `#/goal/${id}`,
  edit: (id: string) => `#/goal/${id}/edit`,
  invites: '#/invites',
  settings: '#/settings',
  admin: '#/admin',
  arrange: '#/arrange',
  forgot: '#/forgot',
  login: '#/',
};

export function navigate(target: string): void {
  window.location.hash = target;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Removes a consumed invite or reset link from the address bar (and from history) without reloading. */
export function clearQuery(hash: string): void {
  window.history.replaceState(null, '', `/${hash}`);
}
