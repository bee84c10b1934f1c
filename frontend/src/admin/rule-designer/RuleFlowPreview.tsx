import { memo, useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Handle, Position, type Node, type NodeProps, type NodeTypes } from '@xyflow/react';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import RecommendIcon from '@mui/icons-material/Recommend';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import CampaignIcon from '@mui/icons-material/Campaign';
import SendIcon from '@mui/icons-material/Send';
import MedicationIcon from '@mui/icons-material/Medication';
import DirectionsRunIcon from '@mui/icons-material/DirectionsRun';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import type { ParameterJson } from '@cds/contracts';
import type { RuleDraft } from './draft';
import { buildFlow, NODE_WIDTH, type FlowNode } from './flow';
import { FlowCanvas, hiddenHandle, nodeBox } from './FlowCanvas';

export const ACTION_ICONS: Record<string, React.ComponentType<SvgIconProps>> = {
  alert: NotificationsActiveIcon,
  recommendation: RecommendIcon,
  warning: WarningAmberIcon,
  notification: CampaignIcon,
  referral: SendIcon,
  medication: MedicationIcon,
  lifestyle: DirectionsRunIcon,
  monitoring: MonitorHeartIcon,
};

type Data = FlowNode['data'];
type FlowNodeProps = NodeProps<Node<Data>>;

const box = { ...nodeBox, width: NODE_WIDTH.condition };
const hidden = hiddenHandle;

/** The flow's first node (a rule's name, a measure's measurement period). */
export const StartNode = memo(function StartNode({ data }: FlowNodeProps) {
  return (
    <Box
      sx={{
        ...box,
        width: data.width ?? NODE_WIDTH.start,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        borderColor: 'primary.main',
        display: 'flex',
        gap: 0.5,
        alignItems: 'center',
        justifyContent: 'center',
        fontWeight: 600,
      }}
    >
      <PlayArrowIcon fontSize="small" aria-hidden="true" />
      <span>{data.label}</span>
      <Handle type="source" position={Position.Bottom} style={hidden} />
    </Box>
  );
});

const ConditionNode = memo(function ConditionNode({ data }: FlowNodeProps) {
  return (
    <Box sx={{ ...box, borderColor: 'primary.main' }}>
      <Handle type="target" position={Position.Top} style={hidden} />
      {data.label}
      <Handle type="source" position={Position.Bottom} style={hidden} />
    </Box>
  );
});

const DecisionNode = memo(function DecisionNode({ data }: FlowNodeProps) {
  return (
    <Box
      sx={{ ...box, width: NODE_WIDTH.decision, borderColor: 'warning.main', bgcolor: 'warning.light', fontWeight: 700, borderWidth: 2 }}
    >
      <Handle type="target" position={Position.Top} style={hidden} />
      {data.label}
      <Handle type="source" position={Position.Bottom} style={hidden} />
    </Box>
  );
});

const ActionNode = memo(function ActionNode({ data }: FlowNodeProps) {
  const Icon = ACTION_ICONS[data.actionType ?? ''] ?? RecommendIcon;
  return (
    <Box
      sx={{
        ...box,
        width: NODE_WIDTH.action,
        borderColor: 'success.main',
        bgcolor: 'success.light',
        display: 'flex',
        gap: 1,
        alignItems: 'flex-start',
        textAlign: 'left',
      }}
      data-action-type={data.actionType}
    >
      <Handle type="target" position={Position.Top} style={hidden} />
      <Icon fontSize="small" sx={{ color: 'success.dark', flexShrink: 0 }} aria-label={data.actionType} />
      <span>{data.label}</span>
    </Box>
  );
});

const NoteNode = memo(function NoteNode({ data }: FlowNodeProps) {
  return (
    <Box sx={{ ...box, borderStyle: 'dashed', borderColor: 'divider', color: 'text.secondary' }}>
      <Handle type="target" position={Position.Top} style={hidden} />
      {data.label}
    </Box>
  );
});

// Outside any component, so React Flow never sees a new object and re-mounts the nodes.
const nodeTypes: NodeTypes = { start: StartNode, condition: ConditionNode, decision: DecisionNode, action: ActionNode, note: NoteNode };

/** docs/product-spec.md section 2: the preview panel (24 rem high) beside the designer's form. */
export default function RuleFlowPreview({
  draft,
  parameters,
}: {
  draft: Pick<RuleDraft, 'name' | 'conditions' | 'actions'>;
  parameters: ParameterJson[];
}) {
  const model = useMemo(() => buildFlow(draft, parameters), [draft, parameters]);
  const nodes = useMemo<Node<Data>[]>(
    () => (model.empty ? [] : model.nodes.map((n) => ({ ...n, draggable: false, selectable: false }))),
    [model],
  );
  return (
    <Box
      component="figure"
      aria-label="Rule preview"
      data-testid="rule-preview"
      sx={{
        m: 0,
        height: '24rem',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1.5,
        bgcolor: 'background.default',
        position: 'relative',
        overflow: 'hidden',
      }}
    >
      {model.empty ? (
        <Box sx={{ height: '100%', display: 'grid', placeItems: 'center', p: 2 }}>
          <Typography color="text.secondary">{model.message}</Typography>
        </Box>
      ) : (
        <>
          <FlowCanvas
            nodes={nodes}
            edges={model.edges}
            nodeTypes={nodeTypes}
            signature={nodes.map((n) => n.data.label).join('\n')}
            description="Part of the rule flow; the list below describes it in order."
          />
          {/* The diagram for screen readers: the same flow as a list. */}
          <Box component="figcaption" className="visually-hidden">
            <ol aria-label="Rule flow">
              {model.nodes.map((n) => {
                const into = model.edges.find((e) => e.target === n.id && e.label);
                return (
                  <li key={n.id}>
                    {into ? `${into.label}: ` : ''}
                    {n.type === 'action' ? `${n.data.actionType}: ` : ''}
                    {n.data.label}
                  </li>
                );
              })}
            </ol>
          </Box>
        </>
      )}
    </Box>
  );
}
