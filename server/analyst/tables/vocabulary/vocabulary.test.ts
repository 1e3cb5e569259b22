import { describe, expect, it } from 'vitest';
import { COLUMN_ROLES } from '@contract/reading';
import { assignRoles, roleFromHeader } from '../roles';
import { GENDER_WORDS, payFrequencyOf, VOCABULARIES } from '.';

describe('vocabularies', () => {
  it('cover the eight languages, every column role and every value vocabulary in each', () => {
    expect(VOCABULARIES.map((v) => v.lang).sort()).toEqual(
      ['de', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt'].sort(),
    );
    for (const v of VOCABULARIES) {
      for (const role of COLUMN_ROLES)
        expect(v.headers[role]?.length ?? 0, `${v.lang} ${role}`).toBeGreaterThan(0);
      const x = v.values;
      const lists: Array<[string, string[]]> = [
        ['women', x.gender.women],
        ['men', x.gender.men],
        ['voluntary', x.leaving.voluntary],
        ['involuntary', x.leaving.involuntary],
        ['mutual', x.leaving.mutual],
        ['other', x.leaving.other],
        ['active', x.status.active],
        ['left', x.status.left],
        ['hourly', x.payFrequency.hourly],
        ['weekly', x.payFrequency.weekly],
        ['monthly', x.payFrequency.monthly],
        ['annual', x.payFrequency.annual],
        ['yes', x.yesNo.yes],
        ['no', x.yesNo.no],
        ['partTime', x.yesNo.partTime],
        ['fullTime', x.yesNo.fullTime],
        ['notAssessed', x.notAssessed],
        ...x.ratings.map((r, i): [string, string[]] => [`rating step ${i + 1}`, r]),
      ];
      expect(x.ratings).toHaveLength(5);
      for (const [name, list] of lists) expect(list.length, `${v.lang} ${name}`).toBeGreaterThan(0);
      expect(x.gender.letters.women).not.toBe(x.gender.letters.men);
    }
  });

  it('never has a gender word for both women and men', () => {
    const both = GENDER_WORDS.women.filter((w) => GENDER_WORDS.men.includes(w));
    expect(both).toEqual([]);
  });

  it.each([
    // French payroll
    ['Matricule', 'employeeId'],
    ['Sexe', 'gender'],
    ['Service', 'department'],
    ["Date d'entrée", 'hireDate'],
    ["DATE D'ENTREE", 'hireDate'],
    ['Date de sortie', 'exitDate'],
    ['Salaire brut annuel', 'salary'],
    ['Motif de départ', 'exitReason'],
    // German SAP
    ['Personalnummer', 'employeeId'],
    ['Geschlecht', 'gender'],
    ['Organisationseinheit', 'department'],
    ['Ebene', 'level'],
    ['Eintrittsdatum', 'hireDate'],
    ['Datum Eintritt', 'hireDate'],
    ['Austrittsdatum', 'exitDate'],
    ['Jahresgehalt', 'salary'],
    ['Stundenlohn', 'hourlyRate'],
    ['Wochenstunden', 'weeklyHours'],
    ['Stichtag', 'asOfDate'],
    // Spanish
    ['Nº Empleado', 'employeeId'],
    ['Fecha de alta', 'hireDate'],
    ['Fecha de baja', 'exitDate'],
    ['Departamento', 'department'],
    ['Salario bruto anual', 'salary'],
    // Italian
    ['Matricola', 'employeeId'],
    ['Data assunzione', 'hireDate'],
    ['RAL', 'salary'],
    ['Livello', 'level'],
    // Dutch
    ['Personeelsnummer', 'employeeId'],
    ['Datum in dienst', 'hireDate'],
    ['Salarisschaal', 'level'],
    ['Geslacht', 'gender'],
    // Portuguese
    ['Data de admissão', 'hireDate'],
    ['Salário base', 'salary'],
    ['Nível', 'level'],
    // Polish
    ['Płeć', 'gender'],
    ['Stanowisko', 'jobTitle'],
    ['Data zatrudnienia', 'hireDate'],
    ['Wynagrodzenie zasadnicze', 'salary'],
    ['Dział', 'department'],
    // New roles, English
    ['Review Cycle', 'reviewCycle'],
    ['Pay Frequency', 'payFrequency'],
    ['Effective Date', 'effectiveDate'],
    ['Attrition %', 'attritionRate'],
  ])('reads the header %s as %s', (header, role) => {
    expect(roleFromHeader(header)?.role).toBe(role);
  });

  it('prefers the plain department column over a supervisory organization, in any order', () => {
    const col = (name: string) => ({ name, type: 'text' as const, format: null, sample: [] });
    expect(
      assignRoles([col('Supervisory Organization'), col('Department'), col('Employee ID')]),
    ).toEqual([null, 'department', 'employeeId']);
    expect(assignRoles([col('Organisationseinheit'), col('Personalnummer')])).toEqual([
      'department',
      'employeeId',
    ]);
  });

  it('reads pay frequency words in any language', () => {
    expect(payFrequencyOf('Stundenlohn')).toBe('hourly');
    expect(payFrequencyOf('MENSUEL')).toBe('monthly');
    expect(payFrequencyOf('Per annum')).toBe('annual');
    expect(payFrequencyOf('semanal')).toBe('weekly');
    expect(payFrequencyOf('Manager')).toBeNull();
  });
});
