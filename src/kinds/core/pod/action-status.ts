/** The answer of a successful pod action: a `Status` of success, code 201 as the server fills it in. */
export const SUCCESS = Object.freeze({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
