import { STOCK_REASON_LABELS, type StockReason } from '@passada/core/contracts/painel';
import { FormField, SelectField } from '../../../../components/form-field.tsx';

/**
 * The reason and the note of a stock change in a batch (decision 0081): what every line of the ledger
 * will say, chosen once for the goods receipt's grid or the stock file.
 */
export function StockReasonFields(props: {
  reasonLabel: string;
  reason: StockReason;
  onReason: (reason: StockReason) => void;
  noteLabel: string;
  note: string;
  onNote: (note: string) => void;
}) {
  return (
    <>
      <SelectField
        label={props.reasonLabel}
        value={props.reason}
        onChange={(e) => props.onReason(e.target.value as StockReason)}
      >
        {Object.entries(STOCK_REASON_LABELS).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </SelectField>
      <FormField
        label={props.noteLabel}
        value={props.note}
        maxLength={300}
        onChange={(e) => props.onNote(e.target.value)}
      />
    </>
  );
}
