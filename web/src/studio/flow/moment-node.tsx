// One moment in the flow graph: its name and type, drawn in its type's colour (the registry's graph.fill), the first
// moment and the endings marked, and badges counting its errors and warnings. Memoised: xyflow re-renders it only when
// its data object changes, and the canvas keeps that object while the moment's drawing is the same.
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { NODE_SIZE } from './auto-layout.js';
import type { NodeInfo } from './flow-model.js';

export type MomentNodeData = Omit<NodeInfo, 'position' | 'id'>;
export type MomentNode = Node<MomentNodeData, 'moment'>;

const ENDING_TEXT = { won: 'Ending · won', lost: 'Ending · lost', ends: 'Ending' } as const;

function MomentNodeView({ data, selected }: NodeProps<MomentNode>) {
  const classes = ['flow-node', selected ? 'flow-node--selected' : '', data.first ? 'flow-node--first' : '', data.ending ? `flow-node--end flow-node--${data.ending}` : ''];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      style={{ width: NODE_SIZE.width, height: NODE_SIZE.height, ...(data.fill ? { background: data.fill } : {}) }}
      data-testid="flow-node"
      data-type={data.type}
    >
      <Handle type="target" position={Position.Top} className="flow-node__handle" />
      <div className="flow-node__marks">
        {data.first ? <span className="flow-node__mark flow-node__mark--first" data-testid="flow-node-first">Start</span> : null}
        {data.ending ? <span className="flow-node__mark flow-node__mark--end">{ENDING_TEXT[data.ending]}</span> : null}
        <span className="flow-node__badges">
          {data.errors > 0 ? <span className="flow-node__badge flow-node__badge--error" title={data.problem ?? undefined} data-testid="flow-node-errors">{data.errors} {data.errors === 1 ? 'error' : 'errors'}</span> : null}
          {data.warnings > 0 ? <span className="flow-node__badge flow-node__badge--warning" title={data.errors > 0 ? undefined : data.problem ?? undefined}>{data.warnings} {data.warnings === 1 ? 'warning' : 'warnings'}</span> : null}
        </span>
      </div>
      <p className="flow-node__name" title={data.name}>{data.name}</p>
      <p className="flow-node__type">{data.label}</p>
      <Handle type="source" position={Position.Bottom} className="flow-node__handle" />
    </div>
  );
}

export const MomentNodeComponent = memo(MomentNodeView);

/** The node types the canvas registers (a constant: xyflow warns when it changes between renders). */
export const NODE_TYPES = { moment: MomentNodeComponent } as const;
