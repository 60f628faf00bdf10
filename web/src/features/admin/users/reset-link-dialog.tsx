import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { CopyText } from '../../../components/copy-text';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { selectResetLink } from './admin-users-selectors';
import { resetLinkClosed } from './admin-users-slice';

/** The password reset link made for a user, to copy and hand over; open while it is made and until closed. */
export function ResetLinkDialog() {
  const dispatch = useAppDispatch();
  const { userId, reply } = useAppSelector(selectResetLink);
  const close = () => dispatch(resetLinkClosed());

  return (
    <Modal
      isOpen={userId !== null}
      title="Password reset link"
      onClose={close}
      closeOnBackdrop={reply !== null}
      footer={
        <button type="button" className="button button--ghost" onClick={close}>
          Close
        </button>
      }
    >
      {reply ? (
        <div className="reset-link">
          <p>{reply.message}</p>
          <CopyText text={reply.link} />
        </div>
      ) : (
        <p role="status">
          <Spinner size={16} /> Creating the reset link…
        </p>
      )}
    </Modal>
  );
}
