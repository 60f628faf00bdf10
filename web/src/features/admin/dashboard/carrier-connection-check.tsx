import { useState } from 'react';
import { errorMessage } from '../../../app/server-message';
import { Spinner } from '../../../components/spinner';
import { adminDashboardApi, type CarrierConnectionReply } from './admin-dashboard-api';

export const CONNECTION_CHECK_FAILED = 'The carrier check could not be run. Try again in a moment.';

type CheckState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; reply: CarrierConnectionReply }
  | { kind: 'failed'; message: string };

/**
 * "Test carrier connection": calls every enabled carrier with the account the platform is configured with and
 * lists what each answered, so an operator setting up real postage knows at once whether the credentials work.
 * A one-off action whose answer belongs to this card alone, so it is kept here rather than in the store.
 */
export function CarrierConnectionCheck() {
  const [state, setState] = useState<CheckState>({ kind: 'idle' });
  const check = async () => {
    setState({ kind: 'checking' });
    try {
      setState({ kind: 'done', reply: await adminDashboardApi.checkCarriers() });
    } catch (error) {
      setState({ kind: 'failed', message: errorMessage(error, CONNECTION_CHECK_FAILED) });
    }
  };
  const checking = state.kind === 'checking';
  return (
    <div className="admin-dashboard__check">
      <button type="button" className="button button--ghost" onClick={check} disabled={checking}>
        {checking ? (
          <>
            <Spinner size={14} /> Testing carrier connection…
          </>
        ) : (
          'Test carrier connection'
        )}
      </button>
      <div aria-live="polite">
        {state.kind === 'done' ? (
          <ul className="admin-dashboard__checks" aria-label="Carrier connection">
            {state.reply.carriers.map((c) => (
              <li
                key={c.id}
                className={`admin-dashboard__check-item admin-dashboard__check-item--${c.ok ? 'ok' : 'bad'}`}
              >
                <span className="admin-dashboard__check-name">
                  <span aria-hidden="true">{c.ok ? '✓' : '✕'}</span> {c.name}: {c.ok ? 'connected' : 'not connected'}
                </span>
                <span className="admin-dashboard__note">
                  {c.message} ({c.ms} ms)
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {state.kind === 'failed' ? (
        <p className="admin-dashboard__error" role="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
