import { useEffect, useMemo } from 'react';
import {
  Background,
  ReactFlow,
  useReactFlow,
  type Edge,
  type Node,
  type NodeTypes,
  type OnNodesChange,
  type FitViewOptions,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { FlowEdge } from './flow';

/** The look every node of a designer flow starts from (the rule preview's and the measure flow's). */
export const nodeBox = {
  px: 1.5,
  py: 1,
  borderRadius: 1.5,
  border: 1,
  fontSize: '0.8rem',
  textAlign: 'center' as const,
  bgcolor: 'background.paper',
};

/** Handles only anchor the edges: the flows are drawn, never wired by hand. */
export const hiddenHandle = { opacity: 0, pointerEvents: 'none' as const };

/**
 * Frames the flow again when a label changes size (typing a longer message wraps its node).
 * The timeout lets React Flow measure the new size first.
 */
function RefitOnChange({ signature, options }: { signature: string; options: FitViewOptions }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    const t = setTimeout(() => void fitView(options), 60);
    return () => clearTimeout(t);
  }, [signature, fitView, options]);
  return null;
}

// One object, so the refit effect does not run again on every render.
const FIT: FitViewOptions = { padding: 0.2 };

/**
 * A designer flow drawn read-only: nodes neither dragged, wired nor selected, the page scrolling over it, the edges
 * as smooth steps with their labels on white. `signature` changes when a node's words do, so the view is framed again.
 */
export function FlowCanvas<D extends Record<string, unknown>>({
  nodes,
  edges,
  nodeTypes,
  signature,
  description,
  fit = FIT,
  minZoom = 0.2,
  onNodesChange,
}: {
  nodes: Node<D>[];
  edges: FlowEdge[];
  nodeTypes: NodeTypes;
  signature: string;
  /** What a screen reader hears on a node. */
  description: string;
  fit?: FitViewOptions;
  minZoom?: number;
  onNodesChange?: OnNodesChange<Node<D>>;
}) {
  const styled = useMemo<Edge[]>(
    () =>
      edges.map((e) => ({
        ...e,
        type: 'smoothstep',
        labelStyle: { fontWeight: 700, fontSize: 11 },
        labelBgStyle: { fill: '#ffffff' },
        style: { stroke: '#475467' },
      })),
    [edges],
  );
  return (
    <ReactFlow
      // A new shape (a node added or removed) mounts a fresh flow, so fitView frames all of it.
      key={nodes.map((n) => n.id).join(',')}
      nodes={nodes}
      edges={styled}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      fitView
      fitViewOptions={fit}
      nodesDraggable={false}
      nodesConnectable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      elementsSelectable={false}
      zoomOnScroll={false}
      preventScrolling={false}
      minZoom={minZoom}
      ariaLabelConfig={{ 'node.a11yDescription.default': description }}
    >
      <Background gap={16} size={1} />
      <RefitOnChange signature={signature} options={fit} />
    </ReactFlow>
  );
}
