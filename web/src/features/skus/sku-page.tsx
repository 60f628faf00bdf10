import '../shell/user-area';
import {
  checkSkuNumber,
  readDecimal,
  SKU_LIMITS,
  SKU_NUMBER_LABELS,
  SKU_NUMBER_RULES,
  type Sku,
  type SkuNumberKey,
} from '@flatship/proto';
import { type ChangeEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { type Column, DataTable, type RowChanges } from '../../components/data-table';
import { createPendingRequest } from '../../components/data-table-requests';
import { FormDialog, type FormField, type FormValues } from '../../components/form-dialog';
import { BarcodeIcon } from '../../components/icons';
import { toastShown } from '../../components/toast-slice';
import { selectUser } from '../auth/auth-selectors';
import type { SkuPresetInput } from './sku-api';
import { parseSkuCsv } from './sku-csv';
import { SKU_MESSAGES, SKU_TOAST_DURATION } from './sku-messages';
import { selectSkus, selectSkusStatus } from './sku-selectors';
import {
  skuAddSubmitted,
  skuDeleteSubmitted,
  skusRequested,
  skuUpdateSubmitted,
  skuUploadSubmitted,
} from './sku-slice';
import './sku.css';

/** Spec doc 2 §2 and §9: the SKU table shows 5 rows per page. */
export const SKU_PAGE_SIZE = 5;

// Spec doc 2 §9: weight and sizes step 0.1, quantities step 1.
const DECIMAL_STEP = 0.1;
const { textMax, weightMax, dimensionMax, maxQtyMax } = SKU_LIMITS;

const FORM_FIELDS: FormField[] = [
  { name: 'sku', label: 'SKU', required: true, maxLength: textMax },
  { name: 'maxQty', label: 'Max Quantity', type: 'number', required: true, min: 1, max: maxQtyMax, step: 1 },
  { name: 'weight', label: 'Weight', type: 'number', required: true, min: 0.1, max: weightMax, step: DECIMAL_STEP },
  { name: 'length', label: 'Length', type: 'number', required: true, min: 0.1, max: dimensionMax, step: DECIMAL_STEP },
  { name: 'width', label: 'Width', type: 'number', required: true, min: 0.1, max: dimensionMax, step: DECIMAL_STEP },
  { name: 'height', label: 'Height', type: 'number', required: true, min: 0.1, max: dimensionMax, step: DECIMAL_STEP },
  { name: 'description', label: 'Description', isWide: true, maxLength: textMax },
];

const EMPTY_FORM: FormValues = { sku: '', maxQty: '', weight: '', length: '', width: '', height: '', description: '' };

/**
 * A number column of the table, checked with the server's own rule and texts ('Weight must be greater than 0'),
 * so a value the server takes is never refused here, nor the other way round.
 */
const numberColumn = (key: SkuNumberKey, header: string, step: number): Column<Sku> => ({
  key,
  header,
  label: SKU_NUMBER_LABELS[key],
  editable: true,
  required: true,
  type: 'number',
  check: (value) => {
    const checked = checkSkuNumber(key, value);
    return checked.ok ? null : checked.message;
  },
  // The spinner's bounds; the check above decides.
  min: SKU_NUMBER_RULES[key].min,
  max: SKU_NUMBER_RULES[key].max,
  step,
  align: 'right',
});

const COLUMNS: Column<Sku>[] = [
  { key: 'sku', header: 'SKU', editable: true, required: true, className: 'sku-page__sku' },
  numberColumn('maxQty', 'Max Qty', 1),
  numberColumn('weight', 'Weight (lb)', DECIMAL_STEP),
  numberColumn('length', 'Length (in)', DECIMAL_STEP),
  numberColumn('width', 'Width (in)', DECIMAL_STEP),
  numberColumn('height', 'Height (in)', DECIMAL_STEP),
  { key: 'description', header: 'Description', editable: true, className: 'sku-page__description' },
];

/** A number as typed, or the text itself when it is not one, so the server names the field. */
const numberOrText = (value: unknown): number | string => {
  const text = value === null || value === undefined ? '' : String(value).trim();
  // Plain decimals only: Number() would send '0x10' as 16.
  const read = readDecimal(text);
  return typeof read === 'object' ? read.value : text;
};

function toPreset(values: Record<string, unknown>): SkuPresetInput {
  const text = (key: string) => (values[key] === null || values[key] === undefined ? '' : String(values[key]).trim());
  return {
    sku: text('sku'),
    maxQty: numberOrText(values.maxQty),
    weight: numberOrText(values.weight),
    length: numberOrText(values.length),
    width: numberOrText(values.width),
    height: numberOrText(values.height),
    description: text('description'),
  };
}

export function SkuPage() {
  const dispatch = useAppDispatch();
  const userId = useAppSelector(selectUser)?._id;
  const skus = useAppSelector(selectSkus);
  const status = useAppSelector(selectSkusStatus);
  const [search, setSearch] = useState('');
  const [isAdding, setIsAdding] = useState(false);
  const [isUploading, setIsUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (userId) dispatch(skusRequested(userId));
  }, [userId, dispatch]);

  const visible = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return skus;
    return skus.filter((s) => s.sku.toLowerCase().includes(needle) || s.description.toLowerCase().includes(needle));
  }, [skus, search]);

  const add = useCallback(
    (values: FormValues) => {
      if (!userId) return Promise.reject(new Error('Not signed in'));
      const { requestId, promise } = createPendingRequest();
      dispatch(skuAddSubmitted({ requestId, userId, fields: toPreset(values) }));
      return promise;
    },
    [dispatch, userId],
  );

  const save = useCallback(
    (row: Sku, changes: RowChanges) => {
      if (!userId) return Promise.reject(new Error('Not signed in'));
      const { requestId, promise } = createPendingRequest();
      dispatch(skuUpdateSubmitted({ requestId, userId, id: row._id, fields: toPreset({ ...row, ...changes }) }));
      return promise;
    },
    [dispatch, userId],
  );

  const remove = useCallback(
    (row: Sku) => {
      const { requestId, promise } = createPendingRequest();
      dispatch(skuDeleteSubmitted({ requestId, id: row._id }));
      return promise;
    },
    [dispatch],
  );

  const uploadFailed = (detail: string) =>
    dispatch(toastShown({ kind: 'error', message: SKU_MESSAGES.uploadFailed, detail, duration: SKU_TOAST_DURATION }));

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after it is fixed.
    event.target.value = '';
    if (!file || !userId || isUploading) return;
    if (!file.name.toLowerCase().endsWith('.csv')) {
      uploadFailed(SKU_MESSAGES.notCsv);
      return;
    }
    setIsUploading(true);
    try {
      const parsed = parseSkuCsv(await file.text());
      if (!parsed.ok) uploadFailed(parsed.message);
      else if (parsed.rows.length === 0) uploadFailed(SKU_MESSAGES.noRows);
      else if (parsed.rows.length > SKU_LIMITS.listMax) {
        uploadFailed(`You can add at most ${SKU_LIMITS.listMax} SKUs at once`);
      } else {
        const { requestId, promise } = createPendingRequest();
        dispatch(skuUploadSubmitted({ requestId, userId, rows: parsed.rows }));
        // The saga has already told the user how it went.
        await promise.catch(() => undefined);
      }
    } catch {
      uploadFailed('The file could not be read');
    } finally {
      setIsUploading(false);
    }
  };

  const emptyText = useMemo(
    () =>
      skus.length > 0 ? (
        SKU_MESSAGES.noMatch
      ) : (
        <div className="sku-page__empty">
          <BarcodeIcon />
          <strong>{SKU_MESSAGES.empty}</strong>
          <span>Add a SKU or upload a CSV file to fill package sizes in bulk orders automatically.</span>
        </div>
      ),
    [skus.length],
  );

  const isLoading = status === 'idle' || (status === 'loading' && skus.length === 0);

  return (
    <section className="card sku-page" aria-labelledby="sku-page-heading">
      <div className="sku-page__header">
        <div>
          <h2 id="sku-page-heading" className="sku-page__title">
            SKU Data Management
          </h2>
          <p className="sku-page__lead">
            A bulk-order row with a saved SKU takes its weight, size and description. CSV columns: sku, maxQty, weight,
            length, width, height, description.
          </p>
        </div>
        <div className="sku-page__actions">
          <input
            ref={fileInput}
            type="file"
            accept=".csv"
            className="sku-page__file"
            aria-label="CSV file of SKUs"
            tabIndex={-1}
            onChange={upload}
          />
          <button
            type="button"
            className="button button--ghost"
            onClick={() => fileInput.current?.click()}
            disabled={isUploading || !userId}
            aria-busy={isUploading}
          >
            {isUploading ? 'Uploading…' : 'Upload CSV File'}
          </button>
          <button type="button" className="button button--primary" onClick={() => setIsAdding(true)}>
            Add New SKU
          </button>
        </div>
      </div>
      <div className="sku-page__search">
        <input
          type="search"
          className="input"
          placeholder="Search by SKU or description"
          aria-label="Search SKUs"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <DataTable
        caption="Saved SKUs"
        columns={COLUMNS}
        rows={visible}
        rowKey={(s) => s._id}
        pageSize={SKU_PAGE_SIZE}
        emptyText={emptyText}
        isLoading={isLoading}
        loadingText="Loading SKUs…"
        onSave={save}
        onDelete={remove}
      />
      <FormDialog
        isOpen={isAdding}
        title="Add New SKU"
        description="Weight in pounds; length, width and height in inches."
        fields={FORM_FIELDS}
        initialValues={EMPTY_FORM}
        submitLabel="Add SKU"
        submittingLabel="Adding…"
        onSubmit={add}
        onClose={() => setIsAdding(false)}
      />
    </section>
  );
}
