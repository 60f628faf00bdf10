import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import './searchable-select.css';

export interface SelectOption {
  value: string;
  label: string;
  /** Options sharing a group are listed under one header, in the order the groups first appear. */
  group?: string;
  /** Extra text matched by the filter but not shown (e.g. a ZIP code). */
  keywords?: string;
}

export interface SearchableSelectProps {
  /** Id of the text input, for the surrounding `<label htmlFor>`. */
  id: string;
  options: SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  placeholder?: string;
  /** Shown in the list when the typed text matches nothing. */
  emptyText?: string;
  name?: string;
  required?: boolean;
  disabled?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** Told every text typed, for lists the server searches (the options are then its answer). */
  onQueryChange?: (query: string) => void;
}

interface Group {
  name: string | undefined;
  options: { option: SelectOption; index: number }[];
}

function groupOptions(options: SelectOption[]): Group[] {
  const groups: Group[] = [];
  options.forEach((option, index) => {
    let group = groups.find((g) => g.name === option.group);
    if (!group) {
      group = { name: option.group, options: [] };
      groups.push(group);
    }
    group.options.push({ option, index });
  });
  return groups;
}

function matches(option: SelectOption, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [option.label, option.value, option.group, option.keywords].some((text) => text?.toLowerCase().includes(q));
}

/**
 * A combobox (WAI-ARIA 1.2 pattern): type to filter, arrows to move, Enter to
 * choose, Escape to close. The input shows the chosen option's label until the
 * user types; leaving the field without choosing restores it.
 */
export function SearchableSelect({
  id,
  options,
  value,
  onChange,
  placeholder,
  emptyText = 'No options found',
  name,
  required,
  disabled,
  'aria-describedby': describedBy,
  'aria-invalid': isInvalid,
  onQueryChange,
}: SearchableSelectProps) {
  const listId = useId();
  const [isOpen, setIsOpen] = useState(false);
  // null: not typing, the input shows the selected label.
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLDivElement>(null);

  const selected = options.find((o) => o.value === value) ?? null;
  const visible = useMemo(() => {
    const found = options.filter((o) => matches(o, query ?? ''));
    // Typing a code ("ca") puts the option with exactly that value first (California before North Carolina).
    const exact = found.findIndex((o) => o.value.toLowerCase() === (query ?? '').trim().toLowerCase());
    const first = found[exact];
    return first ? [first, ...found.filter((_, i) => i !== exact)] : found;
  }, [options, query]);
  const groups = useMemo(() => groupOptions(visible), [visible]);
  const activeOption = isOpen ? visible[active] : undefined;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (!isOpen) return;
    const element = list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    // jsdom has no layout and no scrollIntoView.
    element?.scrollIntoView?.({ block: 'nearest' });
  }, [active, isOpen]);

  const open = () => {
    if (disabled) return;
    const current = visible.findIndex((o) => o.value === value);
    setActive(Math.max(current, 0));
    setIsOpen(true);
  };

  const close = () => {
    setIsOpen(false);
    setQuery(null);
  };

  const choose = (option: SelectOption) => {
    onChange(option.value);
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!isOpen) open();
        else setActive((i) => Math.min(i + 1, visible.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!isOpen) open();
        else setActive((i) => Math.max(i - 1, 0));
        break;
      case 'Home':
      case 'End':
        if (!isOpen) break;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : Math.max(visible.length - 1, 0));
        break;
      case 'Enter':
        // Only while the list is open: otherwise Enter submits the form as usual.
        if (!isOpen) break;
        event.preventDefault();
        if (activeOption) choose(activeOption);
        break;
      case 'Escape':
        if (!isOpen) break;
        // Keep a surrounding dialog open: this Escape only closes the list.
        event.preventDefault();
        event.stopPropagation();
        close();
        break;
      default:
        break;
    }
  };

  return (
    <div className={`searchable-select ${isOpen ? 'searchable-select--open' : ''}`}>
      <input
        id={id}
        name={name}
        className="input searchable-select__input"
        role="combobox"
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={isInvalid || undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        required={required}
        disabled={disabled}
        value={query ?? selected?.label ?? ''}
        onChange={(event) => {
          setQuery(event.target.value);
          onQueryChange?.(event.target.value);
          setActive(0);
          setIsOpen(true);
        }}
        // Typing replaces the shown choice instead of appending to it.
        onFocus={(event) => event.currentTarget.select()}
        onClick={(event) => {
          if (isOpen) return;
          event.currentTarget.select();
          open();
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <span className="searchable-select__chevron" aria-hidden="true" />
      {isOpen ? (
        <div
          ref={list}
          id={listId}
          role="listbox"
          tabIndex={-1}
          className="searchable-select__list"
          // Keep focus in the input so a click chooses before blur closes the list.
          onMouseDown={(event) => event.preventDefault()}
        >
          {visible.length === 0 ? (
            <div className="searchable-select__empty" role="presentation">
              {emptyText}
            </div>
          ) : (
            groups.map((group, groupIndex) => {
              const items = group.options.map(({ option, index }) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input owns the keyboard (aria-activedescendant)
                <div
                  key={option.value}
                  id={optionId(index)}
                  data-index={index}
                  role="option"
                  tabIndex={-1}
                  aria-selected={option.value === value}
                  className={[
                    'searchable-select__option',
                    index === active ? 'searchable-select__option--active' : '',
                    option.value === value ? 'searchable-select__option--selected' : '',
                  ]
                    .filter(Boolean)
                    .join(' ')}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => choose(option)}
                >
                  {option.label}
                </div>
              ));
              if (group.name === undefined) return items;
              const headerId = `${listId}-group-${groupIndex}`;
              return (
                // biome-ignore lint/a11y/useSemanticElements: a listbox groups its options with role=group, not fieldset
                <div key={`group-${group.name}`} role="group" aria-labelledby={headerId}>
                  <div id={headerId} className="searchable-select__group" role="presentation">
                    {group.name}
                  </div>
                  {items}
                </div>
              );
            })
          )}
        </div>
      ) : null}
    </div>
  );
}
