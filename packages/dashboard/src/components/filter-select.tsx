type Props<T extends string> = {
  id: string;
  testId: string;
  label: string;
  /** The first option's text: no filter. */
  all: string;
  options: readonly T[];
  /** '' while no filter is chosen. */
  value: T | '';
  onChange: (value: T | '') => void;
  optionLabel?: (value: T) => string;
};

/** A list page's filter by one field: its label, then a select whose first option is "all". */
export function FilterSelect<T extends string>({ id, testId, label, all, options, value, onChange, optionLabel = (option) => option }: Props<T>) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} data-testid={testId} value={value} onChange={(event) => onChange(event.currentTarget.value as T | '')}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </>
  );
}
