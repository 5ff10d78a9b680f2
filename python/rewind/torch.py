"""A rewind run as a differentiable PyTorch function.

    y = rewind.torch.simulate(problem, {"kappa": k, "u0": u})

runs the problem's model forward from the given parameters (float64 tensors:
this rank's part of a field or of u0, a block whole on every rank) and
returns its outputs y (rewind.Problem.outputs()), keeping the run's
checkpoints where a gradient is wanted (else nothing is stored).  backward() runs the vector-Jacobian product from them (the
reverse sweep alone, RwProblemComputeVJP(), when no other run of the problem
came between; else a whole solve, the same bits) and returns each
parameter's gradient; a block's is summed over the ranks exactly (the same
bits on every rank).  Parameters not given keep the problem's values."""
import numpy as np
import torch

from . import _agree

__all__ = ["simulate"]


def _check(problem, params):
    """The tensors, validated on every rank together: a name, a dtype or a size refused is refused everywhere"""
    problem_text = None
    for name, t in params.items():
        if name not in problem.names:
            problem_text = f"rewind.torch.simulate: no parameter {name!r}; this problem's are {', '.join(problem.names)}"
        elif not isinstance(t, torch.Tensor) or t.dtype != torch.float64:
            problem_text = f"rewind.torch.simulate: parameter {name!r} is {getattr(t, 'dtype', type(t).__name__)}; expected a torch.float64 tensor"
        else:
            n = problem.blocks[name][1] if name in problem.blocks else problem.parameter(name).size
            if t.numel() != n:
                problem_text = f"rewind.torch.simulate: parameter {name!r} has {t.numel()} values on rank {problem.comm.rank}; expected {n}" + \
                    (" (a block, whole on every rank)" if name in problem.blocks else " (this rank's part)")
        if problem_text:
            break
    _agree(problem.comm, problem_text)


def _set(problem, names, tensors):
    for name, t in zip(names, tensors):
        view = problem.parameter(name)
        if view.size:  # a block's view is empty off rank 0
            view[:] = t.detach().reshape(-1).numpy()


class _Simulate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, problem, names, keep, *tensors):
        _set(problem, names, tensors)
        ctx.problem, ctx.names = problem, names
        ctx.save_for_backward(*tensors)
        return torch.from_numpy(problem.outputs(keep=keep))

    @staticmethod
    def backward(ctx, ybar):
        problem, names = ctx.problem, ctx.names
        tensors = ctx.saved_tensors
        _set(problem, names, tensors)  # another forward may have moved them since (then the VJP runs its own)
        grad = problem.vjp(ybar.detach().to(torch.float64).contiguous().numpy())
        out = [torch.from_numpy(np.array(grad[n])).reshape(t.shape) if ctx.needs_input_grad[3 + i] else None
               for i, (n, t) in enumerate(zip(names, tensors))]
        return (None, None, None, *out)


def simulate(problem, params):
    """The outputs y of problem's run from params (a dict: name -> float64 tensor), differentiable"""
    _check(problem, params)
    names = tuple(params)
    keep = torch.is_grad_enabled() and any(params[n].requires_grad for n in names)  # else nothing to store for
    return _Simulate.apply(problem, names, keep, *(params[n] for n in names))
