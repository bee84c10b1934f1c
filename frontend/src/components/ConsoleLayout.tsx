import { useId, useState, type ComponentType, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import MenuIcon from '@mui/icons-material/Menu';
import LogoutIcon from '@mui/icons-material/Logout';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useSignOut } from '../auth/AuthContext';
import { sidebarWidth } from '../theme';
import { LogoLink } from './Logo';

export interface MenuItem {
  label: string;
  to: string;
  icon: ComponentType<SvgIconProps>;
  /** Match the path exactly (for the console's index route). */
  end?: boolean;
}

function isActive(pathname: string, item: MenuItem) {
  return item.end ? pathname === item.to || pathname === `${item.to}/` : pathname === item.to || pathname.startsWith(`${item.to}/`);
}

function SidebarContent({
  title,
  menu,
  expanded,
  onNavigate,
}: {
  title: string;
  menu: MenuItem[];
  expanded: boolean;
  onNavigate?: () => void;
}) {
  const { pathname } = useLocation();
  const signOut = useSignOut();
  return (
    <>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: expanded ? 'flex-start' : 'center',
          px: expanded ? 2 : 0,
          height: 64,
          flexShrink: 0,
        }}
      >
        <LogoLink compact={!expanded} />
      </Box>
      <Divider />
      <Box component="nav" aria-label={`${title} menu`} sx={{ flex: 1 }}>
        <List sx={{ px: 1 }}>
          {menu.map((item) => {
            const active = isActive(pathname, item);
            const Icon = item.icon;
            const button = (
              <ListItemButton
                component={NavLink}
                to={item.to}
                end={item.end}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                aria-label={expanded ? undefined : item.label}
                selected={active}
                sx={{
                  borderRadius: 1.5,
                  mb: 0.5,
                  minHeight: 44,
                  justifyContent: expanded ? 'flex-start' : 'center',
                  px: expanded ? 1.5 : 1,
                }}
              >
                <ListItemIcon sx={{ minWidth: expanded ? 36 : 0, color: active ? 'primary.main' : 'text.secondary' }}>
                  <Icon aria-hidden="true" />
                </ListItemIcon>
                {expanded && (
                  // Long labels ("Parameter Management") wrap rather than being cut, in the drawer too.
                  <ListItemText primary={item.label} slotProps={{ primary: { fontWeight: active ? 600 : 400, lineHeight: 1.3 } }} />
                )}
              </ListItemButton>
            );
            return (
              <li key={item.to} style={{ listStyle: 'none' }}>
                {expanded ? (
                  button
                ) : (
                  <Tooltip title={item.label} placement="right">
                    {button}
                  </Tooltip>
                )}
              </li>
            );
          })}
        </List>
      </Box>
      <Divider />
      <Box sx={{ p: 1 }}>
        {expanded ? (
          <Button fullWidth color="secondary" startIcon={<LogoutIcon />} onClick={signOut} sx={{ justifyContent: 'flex-start', px: 1.5 }}>
            Sign Out
          </Button>
        ) : (
          <Tooltip title="Sign Out" placement="right">
            <IconButton aria-label="Sign Out" onClick={signOut} sx={{ mx: 'auto', display: 'flex' }}>
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        )}
      </Box>
    </>
  );
}

/**
 * Console shell: from the md breakpoint a collapsible sidebar (16 rem expanded, 4 rem collapsed,
 * starts expanded), below it a temporary drawer opened from the header, so a phone gets the
 * whole width for the page; a header with the console title, and the page in <main>.
 */
export function ConsoleLayout({ title, menu, children }: { title: string; menu: MenuItem[]; children?: ReactNode }) {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const [expanded, setExpanded] = useState(true);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const sidebarId = useId();
  const width = expanded ? sidebarWidth.expanded : sidebarWidth.collapsed;
  const open = narrow ? drawerOpen : expanded;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      {narrow ? (
        <Drawer
          variant="temporary"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          slotProps={{
            paper: {
              id: sidebarId,
              component: 'aside',
              'aria-label': `${title} sidebar`,
              sx: { width: sidebarWidth.expanded, maxWidth: '85vw' },
            } as object,
          }}
        >
          <SidebarContent title={title} menu={menu} expanded onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
      ) : (
        <Box
          id={sidebarId}
          component="aside"
          aria-label={`${title} sidebar`}
          data-expanded={expanded}
          sx={{
            width,
            flexShrink: 0,
            transition: 'width 150ms ease',
            borderRight: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            display: 'flex',
            flexDirection: 'column',
            position: 'sticky',
            top: 0,
            height: '100vh',
            overflowX: 'hidden',
            overflowY: 'auto',
          }}
        >
          <SidebarContent title={title} menu={menu} expanded={expanded} />
        </Box>
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Box
          component="header"
          sx={{
            height: 64,
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 2,
            borderBottom: 1,
            borderColor: 'divider',
            bgcolor: 'background.paper',
            position: 'sticky',
            top: 0,
            zIndex: 5,
          }}
        >
          <IconButton
            onClick={() => (narrow ? setDrawerOpen(true) : setExpanded((e) => !e))}
            aria-label={narrow ? 'Open menu' : expanded ? 'Collapse sidebar' : 'Expand sidebar'}
            aria-expanded={open}
            aria-controls={narrow && !drawerOpen ? undefined : sidebarId}
          >
            {open ? <MenuOpenIcon /> : <MenuIcon />}
          </IconButton>
          <Typography component="p" sx={{ fontSize: '1.125rem', fontWeight: 700 }}>
            {title}
          </Typography>
        </Box>
        {/* overflow-wrap: a long e-mail address in a heading must wrap, not widen a phone's page. */}
        <Box component="main" sx={{ flex: 1, p: { xs: 2, md: 4 }, minWidth: 0, overflowWrap: 'anywhere' }}>
          {children ?? <Outlet />}
        </Box>
      </Box>
    </Box>
  );
}
