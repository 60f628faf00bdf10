import type { PrintFormat } from '@flatship/proto';
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectUser } from '../auth/auth-selectors';
import { selectPrintFormat, selectPrintSettings } from './print-settings-selectors';
import { printSettingsRequested } from './print-settings-slice';

/** The signed-in user's print format, read once per session by the first screen that shows a labels download. */
export function usePrintFormat(): PrintFormat {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id;
  const status = useAppSelector(selectPrintSettings)?.status ?? 'idle';
  useEffect(() => {
    if (userId && status === 'idle') dispatch(printSettingsRequested({ userId }));
  }, [dispatch, userId, status]);
  return useAppSelector(selectPrintFormat);
}
