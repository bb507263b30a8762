/*
 * expr_eval.c - run a compiled index expression for one lane.
 *
 * C semantics on int64_t: '/' truncates toward zero, '%' takes the sign of
 * the dividend, '>>' is arithmetic. Where C leaves the result undefined
 * (division by zero, overflow, shift counts outside 0..63, a left shift
 * that loses bits) evaluation stops with GM_ERR_EVAL instead.
 */
#include <stdio.h>
#include "model/expr_internal.h"

enum eval_fault { FAULT_NONE, FAULT_DIV0, FAULT_MOD0, FAULT_SHIFT, FAULT_OVERFLOW };

struct eval_state {
	int64_t st[GM_EXPR_STACK];
	size_t sp;
	int64_t shift;    /* offending shift count, for the message */
};

static enum eval_fault checked_arith(enum gm_opcode op, int64_t a, int64_t b,
				     int64_t *r)
{
	switch (op) {
	case GM_OP_ADD:
		return __builtin_add_overflow(a, b, r) ? FAULT_OVERFLOW : FAULT_NONE;
	case GM_OP_SUB:
		return __builtin_sub_overflow(a, b, r) ? FAULT_OVERFLOW : FAULT_NONE;
	case GM_OP_MUL:
		return __builtin_mul_overflow(a, b, r) ? FAULT_OVERFLOW : FAULT_NONE;
	default:
		break;
	}
	if (b == 0)
		return op == GM_OP_DIV ? FAULT_DIV0 : FAULT_MOD0;
	if (a == INT64_MIN && b == -1)
		return FAULT_OVERFLOW; /* the quotient 2^63 does not fit */
	*r = op == GM_OP_DIV ? a / b : a % b;
	return FAULT_NONE;
}

static enum eval_fault checked_shift(enum gm_opcode op, int64_t a, int64_t b,
				     int64_t *r, struct eval_state *es)
{
	if (b < 0 || b > 63) {
		es->shift = b;
		return FAULT_SHIFT;
	}
	if (op == GM_OP_SHR) {
		/* arithmetic shift without relying on implementation-defined >> */
		*r = a < 0 ? ~(~a >> b) : a >> b;
		return FAULT_NONE;
	}
	*r = (int64_t)((uint64_t)a << b);
	if ((*r < 0 ? ~(~*r >> b) : *r >> b) != a)
		return FAULT_OVERFLOW; /* bits (or the sign) shifted out */
	return FAULT_NONE;
}

static int64_t compare(enum gm_opcode op, int64_t a, int64_t b)
{
	switch (op) {
	case GM_OP_LT: return a < b;
	case GM_OP_LE: return a <= b;
	case GM_OP_GT: return a > b;
	case GM_OP_GE: return a >= b;
	case GM_OP_EQ: return a == b;
	default: return a != b;
	}
}

static enum eval_fault binary(enum gm_opcode op, int64_t a, int64_t b,
			      int64_t *r, struct eval_state *es)
{
	switch (op) {
	case GM_OP_ADD: case GM_OP_SUB: case GM_OP_MUL: case GM_OP_DIV:
	case GM_OP_MOD:
		return checked_arith(op, a, b, r);
	case GM_OP_SHL: case GM_OP_SHR:
		return checked_shift(op, a, b, r, es);
	case GM_OP_AND: *r = a & b; return FAULT_NONE;
	case GM_OP_OR: *r = a | b; return FAULT_NONE;
	case GM_OP_XOR: *r = a ^ b; return FAULT_NONE;
	default: *r = compare(op, a, b); return FAULT_NONE;
	}
}

static enum eval_fault unary(enum gm_opcode op, int64_t *x)
{
	switch (op) {
	case GM_OP_NEG:
		if (*x == INT64_MIN)
			return FAULT_OVERFLOW;
		*x = -*x;
		break;
	case GM_OP_NOT: *x = !*x; break;
	case GM_OP_BNOT: *x = ~*x; break;
	default: *x = *x != 0; break; /* GM_OP_BOOL */
	}
	return FAULT_NONE;
}

static const char *op_text(enum gm_opcode op)
{
	static const char *const names[] = {
		[GM_OP_NEG] = "unary -", [GM_OP_ADD] = "+", [GM_OP_SUB] = "-",
		[GM_OP_MUL] = "*", [GM_OP_DIV] = "/", [GM_OP_MOD] = "%",
		[GM_OP_SHL] = "<<", [GM_OP_SHR] = ">>",
	};

	return (size_t)op < sizeof(names) / sizeof(names[0]) && names[op] ?
	       names[op] : "?";
}

static gm_status eval_fail(enum eval_fault f, const struct gm_insn *in,
			   const struct eval_state *es, int64_t lane,
			   struct gm_expr_error *err)
{
	err->pos = in->pos;
	err->lane = (int)lane;
	switch (f) {
	case FAULT_DIV0:
	case FAULT_MOD0:
		snprintf(err->msg, sizeof(err->msg), "%s by zero at lane %lld",
			 f == FAULT_DIV0 ? "division" : "modulo", (long long)lane);
		break;
	case FAULT_SHIFT:
		snprintf(err->msg, sizeof(err->msg),
			 "shift count %lld outside 0..63 at lane %lld",
			 (long long)es->shift, (long long)lane);
		break;
	default:
		snprintf(err->msg, sizeof(err->msg),
			 "signed 64-bit overflow in '%s' at lane %lld",
			 op_text(in->op), (long long)lane);
		break;
	}
	return GM_ERR_EVAL;
}

/* Execute one instruction; returns the next pc. */
static size_t step(const struct gm_insn *in, size_t pc, struct eval_state *es,
		   const struct gm_thread_vars *v, enum eval_fault *f)
{
	int64_t *top;

	if (in->op == GM_OP_CONST || in->op == GM_OP_VAR) {
		es->st[es->sp++] = in->op == GM_OP_CONST ? in->arg :
				   gm_var_value(v, (int)in->arg);
		return pc + 1;
	}
	top = &es->st[es->sp - 1];
	switch (in->op) {
	case GM_OP_NEG: case GM_OP_NOT: case GM_OP_BNOT: case GM_OP_BOOL:
		*f = unary(in->op, top);
		break;
	case GM_OP_JZ: case GM_OP_JNZ:
		es->sp--;
		if ((*top == 0) == (in->op == GM_OP_JZ))
			return (size_t)in->arg;
		break;
	case GM_OP_JMP:
		return (size_t)in->arg;
	default:
		es->sp--;
		*f = binary(in->op, top[-1], top[0], &top[-1], es);
		break;
	}
	return pc + 1;
}

gm_status gm_expr_eval(const struct gm_expr *e, const struct gm_thread_vars *v,
		       int64_t *out, struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	struct eval_state es;
	size_t pc = 0;

	if (!err)
		err = &dummy;
	/* Fields, not a memset of the 184-byte struct: this runs once a lane
	 * and the clear was 13 % of its time (docs/log/2026-11-30-tests-t60.md). */
	err->pos = 0;
	err->msg[0] = '\0';
	err->text = NULL;
	err->lane = v ? (int)v->lane : -1;
	if (!e || !v || !out || e->n == 0 || e->max_stack > GM_EXPR_STACK)
		return GM_ERR_INVALID_ARG;
	es.sp = 0;
	while (pc < e->n) {
		enum eval_fault f = FAULT_NONE;
		size_t next = step(&e->code[pc], pc, &es, v, &f);

		if (f != FAULT_NONE)
			return eval_fail(f, &e->code[pc], &es, v->lane, err);
		pc = next;
	}
	*out = es.st[0];
	return GM_OK;
}
