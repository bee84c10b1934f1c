import DashboardIcon from '@mui/icons-material/Dashboard';
import AssignmentIcon from '@mui/icons-material/Assignment';
import PsychologyIcon from '@mui/icons-material/Psychology';
import HistoryIcon from '@mui/icons-material/History';
import SettingsIcon from '@mui/icons-material/Settings';
import GroupsIcon from '@mui/icons-material/Groups';
import { ConsoleLayout, type MenuItem } from '../components/ConsoleLayout';

export const PCP_MENU: MenuItem[] = [
  { label: 'Dashboard', to: '/pcp', icon: DashboardIcon, end: true },
  { label: 'Panel', to: '/pcp/panel', icon: GroupsIcon },
  { label: 'Clinical Form', to: '/clinical-form', icon: AssignmentIcon },
  // One assistant entry (issue 23): the Diagnostic Assistant is the chat; /pcp/diagnostics redirects to it.
  { label: 'Diagnostic Assistant', to: '/chatbot', icon: PsychologyIcon },
  { label: 'Case History', to: '/pcp/cases', icon: HistoryIcon },
  { label: 'Settings', to: '/pcp/settings', icon: SettingsIcon },
];

export default function PcpLayout() {
  return <ConsoleLayout title="PCP Console" menu={PCP_MENU} />;
}
