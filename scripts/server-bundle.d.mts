import type { BuildOptions } from 'esbuild';

/** esbuild's options for a server bundle of the package at `root`; the caller adds its entry points and outdir. */
export function serverBundleOptions(root: string): BuildOptions;
