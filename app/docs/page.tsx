import Link from "next/link";
import { ApiReference } from "@/components/docs/ApiReference";
import { env } from "@/server/platform/env";
import { keyRule } from "@/server/rate-limit";

export const metadata = { title: "API reference · QR Records" };

/** Getting started, then every route of /v1 from the OpenAPI document. */
export default function DocsPage() {
  const base = `${env.appUrl}/v1`;
  const personal = keyRule("personal");
  const business = keyRule("business");
  return (
    <>
      <section className="card docs">
        <h1>API reference</h1>
        <h2>Getting started</h2>
        <ol>
          <li>
            Get a key: on <Link href="/profile">Profile</Link>, <strong>Generate API key</strong> (Pro and Business
            plans) acts on your personal library; on <Link href="/business">Business</Link>, a team&apos;s writers and
            admins each generate a business key for the team library. A key is shown once: keep it secret, and revoke it
            on the same page if it leaks.
          </li>
          <li>
            Send it in the <code>x-api-key</code> header. Your first request:
            <pre className="code-block">
              {`curl -s -X POST ${base}/dynqrcodes \\
  -H "x-api-key: $QR_API_KEY" \\
  -H "content-type: application/json" \\
  -d '{"name": "Lunch menu", "destination_url": "https://example.com/menu"}'`}
            </pre>
            The answer (201) holds the new code and its <code>short_url</code>; print its QR image from{" "}
            <code>GET /v1/dynqrcodes/&#123;code&#125;/image?format=png</code>. Every scan of it redirects at once and is
            counted in <code>GET /v1/dynqrcodes/&#123;code&#125;/analytics</code>.
          </li>
        </ol>
        <h2>Rate limits</h2>
        <p>
          Each key has a burst of {personal.capacity} requests refilled at {personal.refillPerSecond} per second and{" "}
          {personal.dailyQuota} requests a day (personal), or {business.capacity} at {business.refillPerSecond} per
          second and {business.dailyQuota} a day (business); the day ends at 00:00 UTC. Every answer carries{" "}
          <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code> for the
          daily quota. A <code>429</code> carries <code>Retry-After</code> in seconds: wait that long, then retry.
        </p>
        <h2>Errors</h2>
        <p>
          Errors are JSON: <code>{`{"error": "…"}`}</code>, or for a batch with invalid items{" "}
          <code>{`{"errors": [{"index": 0, "error": "…"}]}`}</code>, in which case nothing of the batch was created.{" "}
          <code>400</code> bad input (unknown fields too), <code>401</code> missing, invalid or revoked key,{" "}
          <code>403</code> the plan or the team role does not allow it, <code>404</code> not in your key&apos;s library,{" "}
          <code>413</code> body over 1 MiB, <code>415</code> not JSON, <code>429</code> rate limited. The
          machine-readable document is <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </p>
      </section>
      <section className="card">
        <h2>Routes</h2>
        <ApiReference />
      </section>
    </>
  );
}
