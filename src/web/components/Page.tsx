import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { t } from '../i18n/index.js';

/** A page's heading and the document title; the heading takes focus after in-app navigation. */
export function Page({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title]);
  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>{title}</h1>
        {actions}
      </div>
      {children}
    </>
  );
}
