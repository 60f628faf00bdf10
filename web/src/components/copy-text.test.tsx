import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../test/fake-clock';
import { COPIED_DURATION, CopyText } from './copy-text';

describe('CopyText', () => {
  it("copies on click and shows 'Copied!' for 1.5 s", async () => {
    useFakeClock();
    // A clipboard the test can read back.
    userEvent.setup();
    render(<CopyText text="9400111899223344" />);

    // In act: the copy ends after the clipboard's answer, and what it shows is rendered before act returns.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy 9400111899223344' }));
    });
    expect(screen.getByText('Copied!')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('9400111899223344');

    act(() => vi.advanceTimersByTime(COPIED_DURATION - 1));
    expect(screen.getByText('Copied!')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Copied!')).not.toBeInTheDocument();
  });
});
