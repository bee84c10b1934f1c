import { useEffect, useRef, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';

/** A search field that reports its text after a short pause (one request per pause, not per key). */
export function SearchBox({
  placeholder,
  value,
  onSearch,
  delay = 300,
  label,
}: {
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
  delay?: number;
  label?: string;
}) {
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => latest.current(text), delay);
    return () => clearTimeout(t);
  }, [text, delay]);
  return (
    <TextField
      type="search"
      size="small"
      value={text}
      onChange={(e) => setText(e.target.value)}
      placeholder={placeholder}
      slotProps={{
        htmlInput: { 'aria-label': label ?? placeholder.replace(/\.\.\.$/, '') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" aria-hidden="true" />
            </InputAdornment>
          ),
        },
      }}
      sx={{ flex: 1, minWidth: 260, maxWidth: 420 }}
    />
  );
}
