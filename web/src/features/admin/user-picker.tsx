import type { AdminUserRow } from '@flatship/proto';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { errorMessage } from '../../app/server-message';
import { SearchableSelect, type SelectOption } from '../../components/searchable-select';
import { toastShown } from '../../components/toast-slice';
import { searchUsers, USER_SEARCH_DEBOUNCE_MS } from './user-search-api';

export const USER_PICKER_MESSAGES = { searchFailed: 'Failed to load users' } as const;

export const userLabel = (user: AdminUserRow) => `${user.name} (${user.email})`;

interface UserPickerProps {
  /** Id of the text input, for the surrounding `<label htmlFor>`. */
  id: string;
  /** The chosen user's id; null is every user. */
  userId: string | null;
  /** Called with the picked user, or null when the clearing option is picked. */
  onChange: (user: AdminUserRow | null) => void;
  placeholder?: string;
  /** When given, the first option, clearing the choice (e.g. 'Any user' for a filter). */
  clearLabel?: string;
}

/**
 * A user picker searching GET /api/auth/users on the server (name, email or
 * referral code, 10 at a time) once typing pauses; a `clearLabel` option clears
 * the choice. A chosen user the latest search did not bring stays an option; one
 * known only by id (a `?userId=` link) is shown by its id.
 */
export function UserPicker({
  id,
  userId,
  onChange,
  placeholder = 'Search by name, email or referral code',
  clearLabel,
}: UserPickerProps) {
  const dispatch = useAppDispatch();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<AdminUserRow[]>([]);
  const [isSearching, setIsSearching] = useState(true);
  const [chosen, setChosen] = useState<AdminUserRow | null>(null);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setIsSearching(true);
    const run = async () => {
      try {
        const users = await searchUsers(search);
        if (request === latest.current) setFound(users);
      } catch (error) {
        if (request !== latest.current) return;
        console.error('Searching users failed', error);
        const detail = errorMessage(error, USER_PICKER_MESSAGES.searchFailed);
        dispatch(
          toastShown({
            kind: 'error',
            message: USER_PICKER_MESSAGES.searchFailed,
            detail: detail === USER_PICKER_MESSAGES.searchFailed ? undefined : detail,
          }),
        );
      } finally {
        if (request === latest.current) setIsSearching(false);
      }
    };
    // The first list comes at once; typing waits for a pause, so each key is not a request.
    const timer = window.setTimeout(run, search.trim() === '' ? 0 : USER_SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [search, dispatch]);

  const options = useMemo(() => {
    const users = [...found];
    const known = chosen?._id === userId ? chosen : null;
    if (known && !users.some((u) => u._id === known._id)) users.unshift(known);
    const list: SelectOption[] = users.map((u) => ({ value: u._id, label: userLabel(u), keywords: u.referralCode }));
    if (userId && !users.some((u) => u._id === userId)) list.unshift({ value: userId, label: userId });
    return clearLabel ? [{ value: '', label: clearLabel }, ...list] : list;
  }, [found, chosen, userId, clearLabel]);

  return (
    <SearchableSelect
      id={id}
      options={options}
      value={userId}
      placeholder={placeholder}
      emptyText={isSearching ? 'Searching…' : 'No users found'}
      onQueryChange={setSearch}
      onChange={(value) => {
        const user = value ? (found.find((u) => u._id === value) ?? (chosen?._id === value ? chosen : null)) : null;
        if (value && !user) return;
        setChosen(user);
        onChange(user);
      }}
    />
  );
}
