"use client";
import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False in the server's HTML, true once React runs the page. A form reached by a full page
 * load keeps its submit button off until then: a click before would submit natively, losing
 * the person's click and their message.
 */
export const useHydrated = () =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
