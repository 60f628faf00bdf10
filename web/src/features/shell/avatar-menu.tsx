import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatMoney, initials } from '../../app/format';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ChevronDownIcon, LogoutIcon, UserIcon } from '../../components/icons';
import { selectUser } from '../auth/auth-selectors';
import { logoutRequested } from '../auth/auth-slice';

/** The user's menu in the top bar: name, balance, Account and Logout. A disclosure: Enter/Space open, Escape closes. */
export function AvatarMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const [isOpen, setIsOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setIsOpen(false);
        button.current?.focus();
      }
    };
    const onPointerDown = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [isOpen]);

  const logout = () => {
    setIsOpen(false);
    dispatch(logoutRequested());
    navigate('/login');
  };

  return (
    <div className="avatar-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="avatar-menu__button"
        aria-haspopup="true"
        aria-expanded={isOpen}
        aria-controls={menuId}
        aria-label="Account menu"
        onClick={() => setIsOpen((open) => !open)}
      >
        <span className="avatar-menu__avatar" aria-hidden="true">
          {initials(user?.name)}
        </span>
        <span className="avatar-menu__name">{user?.name}</span>
        <ChevronDownIcon width={16} height={16} />
      </button>
      {isOpen ? (
        <section id={menuId} className="avatar-menu__panel" aria-label="Your account">
          <div className="avatar-menu__header">
            <span className="avatar-menu__full-name">{user?.name}</span>
            <span className="avatar-menu__email">{user?.email}</span>
            <span className="avatar-menu__balance">Balance: {formatMoney(user?.balance)}</span>
          </div>
          <ul className="avatar-menu__list">
            <li>
              <Link to="/main/account" className="avatar-menu__item" onClick={() => setIsOpen(false)}>
                <UserIcon width={18} height={18} /> Account
              </Link>
            </li>
            <li>
              <button type="button" className="avatar-menu__item" onClick={logout}>
                <LogoutIcon width={18} height={18} /> Logout
              </button>
            </li>
          </ul>
        </section>
      ) : null}
    </div>
  );
}
