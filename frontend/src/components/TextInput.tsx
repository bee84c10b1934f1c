import { useId, type InputHTMLAttributes } from 'react';

/** A labelled text input (styles/public.css `.field`); required fields show an asterisk, as MUI's did. */
export function TextInput({ label, required, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input id={id} required={required} {...input} />
    </div>
  );
}
