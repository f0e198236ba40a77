// A custom domain's name: what POST /v1/domains and a dynamic create's `domain` accept. One
// spelling per domain (lower case, an IDN as punycode, no trailing dot), so that the unique key,
// the Host a scan arrives with and the TXT record's name all agree.
import { domainToASCII } from "node:url";
import { isIP } from "node:net";
import { z } from "zod";
import { env } from "../platform/env";

export const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The hosts the service itself answers on (APP_URL, SHORT_BASE_URL): never a customer's domain. */
const ownHosts = () => [env.appUrl, env.shortBaseUrl].map((url) => new URL(url).hostname.toLowerCase());

/** The domain's one spelling, or why it is not a domain a library can add. */
export function normalDomain(input: string): { domain: string } | { problem: string } {
  // Cheap checks first: a megabyte is refused unread.
  if (input.length > MAX_DOMAIN_LENGTH * 4)
    return { problem: `domain must be at most ${MAX_DOMAIN_LENGTH} characters` };
  const trimmed = input.trim().replace(/\.$/, "");
  if (trimmed === "") return { problem: "domain must be a domain name such as go.example.com" };
  if (isIP(trimmed) || isIP(trimmed.replace(/^\[|\]$/g, "")))
    return { problem: "domain must be a domain name, not an IP address" };
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === "" || /[/:@?#]/.test(trimmed))
    return { problem: "domain must be a domain name such as go.example.com (no scheme, port or path)" };
  if (ascii.length > MAX_DOMAIN_LENGTH) return { problem: `domain must be at most ${MAX_DOMAIN_LENGTH} characters` };
  const labels = ascii.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^[0-9]+$/.test(labels.at(-1)!))
    return { problem: "domain must be a domain name such as go.example.com" };
  if (ownHosts().includes(ascii)) return { problem: `domain ${ascii} is this service's own host` };
  return { domain: ascii };
}

/** `domain` in a body: checked here, stored as `spelledDomain` writes it. */
export const domainField = z
  .string({ error: "domain must be a domain name such as go.example.com" })
  .superRefine((value, ctx) => {
    const result = normalDomain(value);
    if ("problem" in result) ctx.addIssue({ code: "custom", message: result.problem });
  })
  .meta({
    description:
      "A domain name (any case; an internationalised name is stored as punycode), at most 253 characters, not an IP address nor this service's own host.",
    example: "go.example.com",
    maxLength: 253,
    // No scheme, path, port or user: a bare name (the document's shape; the rule is normalDomain's).
    pattern: "^[^\\s/:@]+$",
  });

/** The stored spelling of a domain domainField accepted. */
export function spelledDomain(value: string): string {
  const result = normalDomain(value);
  if ("problem" in result) throw new Error(result.problem);
  return result.domain;
}
