"use client";
// The library's brand kits (style presets, docs/STYLE-PRESETS.md): on /profile for the personal
// library, on /business for the team's (admins). Each kit with its colours and shapes; deleting
// one changes no code made with it (its style was copied). Kits are saved from a code's style
// editor ("Save as brand kit") and picked in the create form.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import type { Style } from "@/server/library/validation";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

type Scope = "personal" | "team";

/** The kit's choices in words, beside its swatches. */
const summary = (style: Style) =>
  [
    style.module_shape && `${style.module_shape} modules`,
    style.finder_shape && `${style.finder_shape} finders`,
    style.logo && "logo",
    style.frame && `frame “${style.frame.text}”`,
  ]
    .filter(Boolean)
    .join(", ") || "square modules";

export function BrandKitsPanel({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.stylePresets.list.queryOptions({ scope }));
  const remove = useMutation(
    trpc.stylePresets.remove.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.stylePresets.pathKey() }),
    }),
  );
  const row = useAction();
  const kits = list.data?.style_presets ?? [];
  return (
    <section className="card" data-testid="brand-kits" aria-labelledby={`${scope}-kits-title`}>
      <h2 id={`${scope}-kits-title`}>Brand kits</h2>
      <p className="muted">
        Saved designs — colours, shapes, logo, frame — to give new codes by name. Save one from a code&apos;s{" "}
        <strong>Style</strong> editor; pick it when creating a code. A code keeps the design it was given: changing or
        deleting a kit does not change printed codes.
      </p>
      {list.error && <p className="error">{list.error.message}</p>}
      {kits.length === 0 ? (
        list.isSuccess && <p className="muted">No brand kits yet.</p>
      ) : (
        <ul className="kit-list">
          {kits.map((kit) => (
            <li key={kit.name} className="kit-item" data-testid={`kit-${kit.name}`}>
              <span className="kit-swatches" aria-hidden="true">
                <span className="swatch" style={{ background: kit.style.foreground ?? "#000000" }} />
                <span className="swatch" style={{ background: kit.style.background ?? "#ffffff" }} />
              </span>
              <span className="kit-main">
                <strong className="wrap">{kit.name}</strong>
                <span className="muted">
                  {kit.style.foreground ?? "#000000"} on {kit.style.background ?? "#ffffff"}, {summary(kit.style)}
                </span>
              </span>
              <button
                type="button"
                className="secondary"
                disabled={row.busy}
                aria-label={`Delete brand kit ${kit.name}`}
                onClick={() => void row.run(() => remove.mutateAsync({ scope, name: kit.name }))}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError error={row.error} testId="kit-error" />
    </section>
  );
}
