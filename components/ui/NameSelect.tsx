// A labelled choice among names (a library's verified domains, its brand kits) whose first
// option means none: the create form, the import from another service and the style editor.
type Props = {
  id: string;
  label: string;
  /** The first option's words, whose value is "". */
  none: string;
  names: readonly string[];
  value: string;
  disabled?: boolean;
  onValue: (name: string) => void;
};

export function NameSelect({ id, label, none, names, value, disabled, onValue }: Props) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onValue(e.target.value)}>
        <option value="">{none}</option>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </>
  );
}
