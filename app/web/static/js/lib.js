// The view library, in one place: Preact with htm templates (vendored, no build step).
import { h, render, Fragment } from "../vendor/preact.mjs";
import { useState, useEffect, useLayoutEffect, useRef, useCallback, useMemo } from "../vendor/hooks.mjs";
import htm from "../vendor/htm.mjs";

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useLayoutEffect, useRef, useCallback, useMemo };

/** "3 minutes ago" from a server time in ms. */
export function ago(ms, now = Date.now()) {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
