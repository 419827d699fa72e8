import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import type { Problem } from './errors';
import type { Translate } from './i18n';

/** The page's language, for every component below the app. */
export const I18n = createContext<{ t: Translate; locale: string }>({ t: (key) => key, locale: 'en' });
export const useT = () => useContext(I18n).t;

/**
 * One screen of the flow: its heading takes the focus when the screen appears (and when `name`
 * changes), so a screen reader reads where the person is and the keyboard starts from there.
 */
export function Screen({ title, name, children }: { title: string; name?: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [name, title]);
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/** Puts a message in the page's one live region (App), which screen readers read politely. */
export const Announce = createContext<(message: string) => void>(() => undefined);

/** A status line: shown here, and announced through the page's live region when it appears or changes. */
export function Status({ children, busy }: { children: string; busy?: boolean }) {
  const announce = useContext(Announce);
  useEffect(() => announce(children), [announce, children]);
  return (
    <p className={busy ? 'status busy' : 'status'}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </p>
  );
}

/** A problem the person must act on, announced at once. */
export function Alert({ problem, extra }: { problem: Problem | null; extra?: ReactNode }) {
  const t = useT();
  return (
    <div className="alert-slot" role="alert">
      {problem && (
        <p className="alert">
          {t(problem.key, problem.values)}
          {extra}
        </p>
      )}
    </div>
  );
}

/** A field's label, its hint and its error, tied to the control by ids. */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** aria-describedby for a Field's control. */
export const describedBy = (id: string, hint: boolean, error: boolean) =>
  [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;

/** A required choice in a Field: a first "Choose…" option, then `options`; its error tied to it. */
export function SelectField({
  id,
  label,
  error,
  value,
  options,
  autoComplete,
  onChange,
}: {
  id: string;
  label: string;
  error: string | null;
  value: string;
  options: Array<{ value: string; label: string }>;
  autoComplete?: string;
  onChange(value: string): void;
}) {
  const t = useT();
  return (
    <Field id={id} label={label} error={error}>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, false, !!error)}
        autoComplete={autoComplete}
        required
      >
        <option value="">{t('form.choose')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
