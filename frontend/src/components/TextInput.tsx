import { useId, type InputHTMLAttributes } from 'react';

/** A labelled text input (styles/public.css `.field`); required fields show an asterisk, as MUI's did. */
export function TextInput({ label, required, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input id={id} required={required} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="small muted">
          {hint}
        </p>
      )}
    </div>
  );
}
