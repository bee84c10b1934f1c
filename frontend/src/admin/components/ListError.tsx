import Box from '@mui/material/Box';
import { useListContext } from 'react-admin';
import { ErrorBlock } from '../../components/StateViews';

/**
 * A react-admin list that could not load (`<List error={<ListError title="…" />}>`): what failed,
 * the server's reason, and Retry, instead of an empty table and a toast that goes away.
 */
export function ListError({ title }: { title: string }) {
  const { error, refetch } = useListContext();
  return (
    <Box sx={{ p: 2 }}>
      <ErrorBlock title={title} error={error} onRetry={() => void refetch()} />
    </Box>
  );
}
