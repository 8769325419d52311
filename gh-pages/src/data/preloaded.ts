/**
 * The files the preloader (gh-pages/src/preload.ts) fetched before the bundle ran, handed to the
 * app by URL: the app reads each once from here instead of asking for it again. A file that
 * arrived while the bundle was loading is then read without waiting for a response task, so a
 * view whose files have all arrived is drawn in one go, without a frame drawn between its steps.
 */
type Handed = Record<string, Promise<string | undefined>>;

/** The window property both bundles agree on. */
const KEY = 'jsioPreloaded';
const slot = () => window as unknown as Record<typeof KEY, Handed | undefined>;

/** Starts fetching the files (the preloader's side); a failed one reads as undefined. */
export function handOver(urls: readonly string[]): void {
  const handed: Handed = Object.create(null);
  for (const url of urls)
    handed[url] = fetch(url).then(
      (r) => (r.ok ? r.text() : undefined),
      () => undefined,
    );
  slot()[KEY] = handed;
}

/** A handed-over file's text, once (the app's side); undefined when it was not fetched or failed: fetch it then. */
export function preloaded(url: string): Promise<string | undefined> | undefined {
  const handed = slot()[KEY];
  const text = handed?.[url];
  if (text) delete handed[url];
  return text;
}
