"use client";
// The style editor's brand kits (docs/STYLE-PRESETS.md): start the design from a kit of the
// library, or save the design being edited as a new kit (in a team, admins only).
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LibraryKind } from "@/server/library/libraryItems";
import { PRESET_NAME_MAX } from "@/server/stylePresets/presetFields";
import type { Style } from "@/server/library/validation";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { NameSelect } from "../ui/NameSelect";

type Props = {
  libraryKind: LibraryKind;
  prefix: string;
  /** The design as it would be saved now. */
  style: Style;
  /** Saving needs a problem-free design, and a team's admin. */
  canSave: boolean;
  onPick: (style: Style) => void;
};

export function BrandKitBar({ libraryKind, prefix, style, canSave, onPick }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const kits = useQuery(trpc.stylePresets.list.queryOptions({ scope: libraryKind })).data?.style_presets ?? [];
  const create = useMutation(
    trpc.stylePresets.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.stylePresets.pathKey() }),
    }),
  );
  const [name, setName] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const saving = useAction();
  const save = () =>
    void saving.run(async () => {
      await create.mutateAsync({ scope: libraryKind, body: { name: name.trim(), style } });
      setSaved(name.trim());
      setName("");
    });
  return (
    <div className="kit-bar">
      {kits.length > 0 && (
        <div>
          <NameSelect
            id={`${prefix}-kit`}
            label="Start from a brand kit"
            none="Choose a kit…"
            names={kits.map((k) => k.name)}
            value=""
            onValue={(name) => {
              const kit = kits.find((k) => k.name === name);
              if (kit) onPick(kit.style);
            }}
          />
        </div>
      )}
      {canSave && (
        <div>
          <label htmlFor={`${prefix}-kit-name`}>Save this design as a brand kit</label>
          <span className="actions tight">
            <input
              id={`${prefix}-kit-name`}
              value={name}
              maxLength={PRESET_NAME_MAX}
              placeholder="Brand blue"
              // Enter saves the kit, not the code's style (the editor's form around it).
              onKeyDown={(e) => {
                if (e.key !== "Enter") return;
                e.preventDefault();
                if (name.trim() !== "") save();
              }}
              onChange={(e) => {
                saving.clear();
                setSaved(null);
                setName(e.target.value);
              }}
            />
            <button type="button" className="secondary" disabled={saving.busy || name.trim() === ""} onClick={save}>
              Save as brand kit
            </button>
          </span>
          {saved && (
            <p className="muted" role="status" data-testid={`${prefix}-kit-saved`}>
              Saved as brand kit “{saved}”.
            </p>
          )}
          <FormError error={saving.error} testId={`${prefix}-kit-error`} />
        </div>
      )}
    </div>
  );
}
