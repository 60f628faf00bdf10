import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPIED_DURATION, CopyText } from './copy-text';

afterEach(() => vi.useRealTimers());

describe('CopyText', () => {
  it("copies on click and shows 'Copied!' for 1.5 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<CopyText text="9400111899223344" />);

    await user.click(screen.getByRole('button', { name: 'Copy 9400111899223344' }));
    expect(screen.getByText('Copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('9400111899223344');

    act(() => vi.advanceTimersByTime(COPIED_DURATION - 100));
    expect(screen.getByText('Copied!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Copied!')).not.toBeInTheDocument();
  });
});
