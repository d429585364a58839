/**
 * Who sells: the identification an online shop must show (docs/brazil.md, "Consumer law that shapes
 * screens"). One source for the site footer, the checkout and the e-mails.
 */
export const COMPANY = {
  legalName: 'Passada Artigos Esportivos Ltda.',
  cnpj: '12.ABC.345/01DE-35',
  address: 'Av. Beira Mar, 3000, loja 12, Meireles, Fortaleza-CE, CEP 60165-121',
  email: 'contato@passada.com.br',
  phone: '(85) 3234-5678',
  /** The phone as a tel: link wants it. */
  phoneE164: '+558532345678',
} as const;

/** The identification on one line: "Razão social · CNPJ … · endereço · e-mail · telefone". */
export function companyIdentityLine(): string {
  return [COMPANY.legalName, `CNPJ ${COMPANY.cnpj}`, COMPANY.address, COMPANY.email, COMPANY.phone].join(
    ' · ',
  );
}
