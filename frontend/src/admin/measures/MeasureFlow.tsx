import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { applyNodeChanges, Handle, Position, type Node, type NodeChange, type NodeProps, type NodeTypes } from '@xyflow/react';
import type { MeasureDesignJson } from '@cds/contracts';
import { FlowCanvas, hiddenHandle, nodeBox } from '../rule-designer/FlowCanvas';
import { StartNode } from '../rule-designer/RuleFlowPreview';
import { CutPointField } from './CutPointField';
import type { MeasureDraftState } from './measureDraft';
import {
  buildMeasureFlow,
  estimatedHeight,
  MEASURE_NODE_WIDTH,
  stackColumn,
  type FlowPopulation,
  type FlowRule,
  type MeasureFlowModel,
} from './measureFlow';

const STATUS: Record<Exclude<FlowRule['status'], 'published'>, string> = {
  changed: 'Changed in the draft',
  'left-out': 'Left out of the draft',
  new: 'New in the draft',
};

function RuleWords({ r }: { r: FlowRule }) {
  const out = r.status === 'left-out';
  return (
    <Box component="li" sx={{ mb: 0.75, color: out ? 'text.disabled' : undefined }}>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600, textDecoration: out ? 'line-through' : undefined }}>
        {r.name}
      </Typography>
      {r.status !== 'published' && (
        <Chip size="small" color={out ? 'default' : 'warning'} label={STATUS[r.status]} sx={{ ml: 1, height: 20 }} />
      )}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {r.conditions.map((c, j) => (
          <Typography component="li" variant="body2" key={j}>
            {c.change ? (
              <>
                {c.change.words}{' '}
                <Box
                  component="mark"
                  aria-label={`cut-point changed from ${c.change.was} to ${c.change.now}`}
                  sx={{ bgcolor: 'warning.light', color: 'text.primary', px: 0.5, borderRadius: 0.5, fontWeight: 700 }}
                >
                  {c.change.was} → {c.change.now}
                </Box>
              </>
            ) : (
              c.text
            )}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** A population's words: what it means, its rules (any of them), what it reads and from which value sets. */
function PopulationBody({ p, onEdit }: { p: FlowPopulation; onEdit?: (code: string) => void }) {
  return (
    <Box component="section" aria-label={p.label} sx={{ textAlign: 'left' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography id={`flow-${p.code}`} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
          {p.label}
        </Typography>
        {p.changed && <Chip size="small" color="warning" label="Draft differs" />}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: p.rules.length ? 1 : 0 }}>
        {p.meaning}
      </Typography>
      {p.rules.length > 1 && (
        <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.5 }}>
          Any of these rules
        </Typography>
      )}
      {p.rules.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {p.rules.map((r) => (
            <RuleWords key={r.index} r={r} />
          ))}
        </Box>
      )}
      {p.note && (
        <Alert severity={p.note.gap ? 'warning' : 'info'} sx={{ mt: 1, py: 0 }}>
          {p.note.text}
        </Alert>
      )}
      {p.reads.length > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          <strong>Reads from the record:</strong> {p.reads.join('; ')}
        </Typography>
      )}
      {p.valueSets.length > 0 && (
        <Typography variant="body2">
          <strong>Value sets:</strong> {p.valueSets.join(', ')}
        </Typography>
      )}
      {onEdit && p.cutPoints > 0 && (
        // nodrag/nopan: a click on the button is a click, not the start of a pan of the canvas.
        <Button
          size="small"
          variant="outlined"
          className="nodrag nopan"
          sx={{ mt: 1 }}
          onClick={() => onEdit(p.code)}
          aria-label={`Edit cut-points: ${p.label}`}
        >
          Edit cut-points
        </Button>
      )}
    </Box>
  );
}

type PopulationData = { population: FlowPopulation; onEdit: (code: string) => void };
type PeriodData = { label: string; width: number };

const PopulationNode = memo(function PopulationNode({ data }: NodeProps<Node<PopulationData>>) {
  const changed = data.population.changed;
  return (
    <Box
      sx={{
        ...nodeBox,
        width: MEASURE_NODE_WIDTH.population,
        borderColor: changed ? 'warning.main' : 'primary.main',
        borderWidth: changed ? 2 : 1,
        cursor: 'default',
      }}
    >
      <Handle type="target" position={Position.Top} style={hiddenHandle} />
      <PopulationBody p={data.population} onEdit={data.onEdit} />
      <Handle type="source" position={Position.Bottom} style={hiddenHandle} />
    </Box>
  );
});

// Outside any component, so React Flow never sees a new object and re-mounts the nodes.
const nodeTypes: NodeTypes = { start: StartNode, population: PopulationNode };

type MeasureNode = Node<PopulationData | PeriodData>;

/** The flow's nodes, stacked by their measured heights (estimated until the browser has measured them). */
function stacked(nodes: MeasureNode[]): MeasureNode[] {
  const at = stackColumn(
    nodes.map((n) => ({
      id: n.id,
      width: n.id === 'period' ? MEASURE_NODE_WIDTH.period : MEASURE_NODE_WIDTH.population,
      height: n.measured?.height ?? (n.id === 'period' ? 48 : estimatedHeight((n.data as PopulationData).population)),
    })),
  );
  return nodes.map((n, i) => (n.position.x === at[i].x && n.position.y === at[i].y ? n : { ...n, position: { x: at[i].x, y: at[i].y } }));
}

function nodesOf(model: MeasureFlowModel, onEdit: (code: string) => void): MeasureNode[] {
  const base = { position: { x: 0, y: 0 }, draggable: false, selectable: false };
  // Sizes known before the browser measures (React Flow shows a node only once it has one); the measured ones replace them.
  return [
    {
      ...base,
      id: 'period',
      type: 'start',
      data: { label: model.period, width: MEASURE_NODE_WIDTH.period },
      initialWidth: MEASURE_NODE_WIDTH.period,
      initialHeight: 48,
    },
    ...model.populations.map((p) => ({
      ...base,
      id: p.code,
      type: 'population',
      data: { population: p, onEdit },
      // React Flow lets a node that is neither selected nor dragged take no clicks: this one's button must.
      style: { pointerEvents: 'all' as const },
      initialWidth: MEASURE_NODE_WIDTH.population,
      initialHeight: estimatedHeight(p),
    })),
  ];
}

/** The canvas at a desk: React Flow with the rule preview's nodes, edges and column, as tall as the flow. */
function FlowDiagram({ model, onEdit, narrow }: { model: MeasureFlowModel; onEdit: (code: string) => void; narrow: boolean }) {
  const fresh = useMemo(() => nodesOf(model, onEdit), [model, onEdit]);
  const [nodes, setNodes] = useState(() => stacked(fresh));
  const [shown, setShown] = useState(fresh);
  if (shown !== fresh) {
    // New words: the new nodes keep the sizes measured so far, until the browser measures them again.
    setShown(fresh);
    setNodes((old) => stacked(fresh.map((n) => ({ ...n, measured: old.find((o) => o.id === n.id)?.measured }))));
  }
  const onNodesChange = (changes: NodeChange<MeasureNode>[]) => setNodes((ns) => stacked(applyNodeChanges(changes, ns)));
  const last = nodes[nodes.length - 1];
  const height = last.position.y + (last.measured?.height ?? estimatedHeight((last.data as PopulationData).population)) + 48;
  return (
    <Box
      component="figure"
      aria-label="Measure flow"
      sx={{ m: 0, height, border: 1, borderColor: 'divider', borderRadius: 1.5, bgcolor: 'background.default', position: 'relative' }}
    >
      <FlowCanvas
        nodes={nodes}
        edges={model.edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        // Framed again when a node moves or the panel beside it narrows the canvas.
        signature={`${narrow}:${nodes.map((n) => n.position.y).join(',')}`}
        description="A step of the measure; the steps are read top to bottom."
        fit={FIT}
        minZoom={0.5}
      />
    </Box>
  );
}
const FIT = { padding: 0.04, maxZoom: 1 };

/** On a phone: the same nodes as a list, top to bottom, each edge's words between them. */
function FlowList({
  model,
  editing,
  editor,
  onEdit,
}: {
  model: MeasureFlowModel;
  editing: string | null;
  editor: ReactNode;
  onEdit: (code: string) => void;
}) {
  return (
    <Box component="ol" aria-label="Measure flow" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      <Box component="li" sx={{ p: 1, borderRadius: 1.5, bgcolor: 'primary.main', color: 'primary.contrastText', fontWeight: 600 }}>
        {model.period}
      </Box>
      {model.populations.map((p) => {
        const into = model.edges.find((e) => e.target === p.code)?.label;
        return (
          <Box component="li" key={p.code}>
            <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 0.5 }} aria-hidden="true">
              ↓ {into ?? ''}
            </Typography>
            <Paper variant="outlined" sx={{ p: 1.5, borderColor: p.changed ? 'warning.main' : 'primary.main' }}>
              <PopulationBody p={p} onEdit={onEdit} />
            </Paper>
            {editing === p.code && <Box sx={{ mt: 1 }}>{editor}</Box>}
          </Box>
        );
      })}
    </Box>
  );
}

/** The node's panel: the population's cut-points, edited in the page's one draft (the Draft tab's form shows the same). */
function CutPointPanel({
  code,
  model,
  draft,
  onClose,
  onOpenDraft,
}: {
  code: string;
  model: MeasureFlowModel;
  draft: MeasureDraftState;
  onClose: () => void;
  onOpenDraft: () => void;
}) {
  const p = model.populations.find((x) => x.code === code)!;
  const first = useRef<HTMLDivElement>(null);
  // Keyboard users land in the panel they opened.
  useEffect(() => first.current?.querySelector('input')?.focus(), [code]);
  return (
    <Paper variant="outlined" component="section" aria-label={`Cut-points: ${p.label}`} sx={{ p: 2 }} ref={first}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        Cut-points: {p.label}
      </Typography>
      <Stack spacing={1.5}>
        {p.rules.map((fr) => {
          const r = draft.rules[fr.index];
          return r.conditions.map((_, j) =>
            typeof r.worded[j] === 'number' ? (
              <CutPointField key={`${fr.index}-${j}`} r={r} j={j} onChange={(v) => draft.setCutPoint(fr.index, j, v)} />
            ) : null,
          );
        })}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ my: 1.5 }}>
        This is the draft the Draft tab edits: save it, preview its impact and publish it there.
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={onOpenDraft}>
          Open the draft
        </Button>
        <Button onClick={onClose}>Close</Button>
      </Stack>
    </Paper>
  );
}

/**
 * Issue 21: the measure as a flow (the measurement period, then initial population → denominator → exclusions →
 * numerator), each node in a physician's words, drawn from the page's draft with what it changes marked; a node's
 * panel edits that same draft's cut-points. On a phone the flow is a list.
 */
export function MeasureFlow({ d, draft, onOpenDraft }: { d: MeasureDesignJson; draft: MeasureDraftState; onOpenDraft: () => void }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const model = useMemo(() => buildMeasureFlow(d, draft.rules), [d, draft.rules]);
  const [editing, setEditing] = useState<string | null>(null);
  // One function for the page's life, so the nodes' data stays the same object while nothing else changes.
  const [onEdit] = useState(() => (code: string) => setEditing(code));
  const differs = model.populations.some((p) => p.changed);
  const editor = editing ? (
    <CutPointPanel key={editing} code={editing} model={model} draft={draft} onClose={() => setEditing(null)} onOpenDraft={onOpenDraft} />
  ) : null;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {d.measurement_period.text}{' '}
        {differs
          ? `The flow shows the ${d.draft ? `draft (version ${d.draft.label})` : 'unsaved draft'}: what differs from version ${d.published.label} is marked.`
          : d.draft
            ? `The draft (version ${d.draft.label}) is the same as version ${d.published.label}.`
            : `The flow shows version ${d.published.label}, as published.`}
      </Typography>
      {phone ? (
        <FlowList model={model} editing={editing} editor={editor} onEdit={onEdit} />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: editor ? { xs: '1fr', md: '1fr 22rem' } : '1fr', alignItems: 'start' }}>
          <FlowDiagram model={model} onEdit={onEdit} narrow={!!editor} />
          {editor && <Box sx={{ position: { md: 'sticky' }, top: { md: 80 } }}>{editor}</Box>}
        </Box>
      )}
    </Stack>
  );
}
